"""The `http` system's `[[systems]]` entry: a CRS written in any language, behind a URL."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_serializer

from macrs_sim.agents.registry import SystemOptions, SystemSpec
from macrs_sim.config import DAY_S
from macrs_sim.redact import redact_url

MIB = 1024 * 1024


class HTTPSystemOptions(SystemOptions):
    kind: Literal["http"] = "http"
    url: str = Field(pattern=r"^https?://")
    # Per request, from sending it to the reply's last byte (redirects included); a reply
    # later than this costs the dialogue (status "error").
    timeout_s: float = Field(default=30.0, gt=0, le=DAY_S)
    # A longer reply costs the dialogue; it is read in chunks, never held whole.
    max_reply_bytes: int = Field(default=MIB, gt=0, le=1024 * MIB)

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
