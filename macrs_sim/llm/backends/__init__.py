"""Model backends as registered specs (registry.py); one module per built-in backend."""
