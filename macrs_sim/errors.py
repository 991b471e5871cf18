"""Errors that end in one clear line for the user (the CLI prints them without a traceback)."""


class MacrsSimError(Exception):
    """Base: the message is the whole story (what, where, what was expected)."""


class ConfigError(MacrsSimError):
    """A scenario or data file is wrong."""


class ModelUnavailableError(MacrsSimError):
    """A model file is missing or an endpoint cannot be reached."""


class DataError(MacrsSimError):
    """A catalog or sample set cannot be used."""


class StructuredOutputError(MacrsSimError):
    """A model reply broke its JSON schema even after repair and retries."""
