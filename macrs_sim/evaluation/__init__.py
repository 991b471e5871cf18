"""Offline evaluation protocols of the seed systems, one folder per system (campaign layer)."""
