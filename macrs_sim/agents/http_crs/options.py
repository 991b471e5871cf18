"""The `http` system's `[[systems]]` entry: a CRS written in any language, behind a URL."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_serializer, field_validator

from macrs_sim.agents.registry import SystemOptions, SystemSpec
from macrs_sim.config import DAY_S
from macrs_sim.redact import redact_url

MIB = 1024 * 1024


class HTTPSystemOptions(SystemOptions):
    kind: Literal["http"] = "http"
    # The system's endpoint: each turn is POSTed there as JSON (agents/http_crs).
    url: str = Field(pattern=r"^https?://")
    # Per request, from sending it to the reply's last byte (redirects included); a reply
    # later than this costs the dialogue (status "error").
    timeout_s: float = Field(default=30.0, gt=0, le=DAY_S)
    # A longer reply costs the dialogue; it is read in chunks, never held whole.
    max_reply_bytes: int = Field(default=MIB, gt=0, le=1024 * MIB)

    @field_validator("url")
    @classmethod
    def _parses(cls, url: str) -> str:
        """An http(s) URL with a host and a valid port; the message never repeats the URL
        (it may hold a password)."""
        if any(c.isspace() or not c.isprintable() for c in url):
            raise ValueError("not a valid http(s) URL (spaces or control characters)")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            raise ValueError("not a valid http(s) URL (bad port or host)") from None
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("not a valid http(s) URL (expected http://HOST[:PORT]/PATH)")
        if port == 0:
            raise ValueError("not a valid http(s) URL (port 0)")
        return url

    @field_serializer("url", when_used="json")
    def _redacted(self, url: str) -> str:
        return redact_url(url)


SPEC = SystemSpec(
    kind="http",
    options=HTTPSystemOptions,
    build="macrs_sim.agents.http_crs.system:build",
    uses_llm=False,
    # A remote CRS may use the user's past like any paper system.
    history="pre-target",
)
