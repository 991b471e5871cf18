"""The `http` system's `[[systems]]` entry: a CRS written in any language, behind a URL."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_serializer

from macrs_sim.agents.registry import SystemOptions, SystemSpec
from macrs_sim.config import DAY_S
from macrs_sim.redact import redact_url


class HTTPSystemOptions(SystemOptions):
    kind: Literal["http"] = "http"
    url: str = Field(pattern=r"^https?://")
    # Per request; a reply later than this costs the dialogue (status "error").
    timeout_s: float = Field(default=30.0, gt=0, le=DAY_S)

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
