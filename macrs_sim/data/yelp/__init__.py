"""The Yelp Open Dataset (business and review JSON lines) -> the prepared database."""
