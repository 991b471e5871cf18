"""Amazon Reviews (the 2014, 2018 and 2023 releases, as published) -> the prepared database."""
