"""Golden outputs of `report`, `compare` and `view` (issue 28): see outputs.py and regen.py."""
