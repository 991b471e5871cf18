"""Offline evaluation protocols of the systems under test, one subfolder per system."""
