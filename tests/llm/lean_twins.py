"""Helpers for the lean client's tests: a fake server that keeps each request's raw bytes,
and both clients (lean and SDK) for one config."""

from __future__ import annotations

from typing import Any

from aiohttp import web
from autogen_core.models import ChatCompletionClient

from macrs_sim.config import OpenAIModel
from macrs_sim.llm import build_openai_client
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.lean import build_lean_client

SECRET = "sk-test-SECRET-0123456789"


class RawServer(FakeOpenAIServer):
    """FakeOpenAIServer that also keeps every chat request's body as sent."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.raw: list[bytes] = []

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.raw.append(await request.read())  # aiohttp keeps it for request.json()
        return await super()._chat(request)


def config(url: str, **kw: Any) -> OpenAIModel:
    fields: dict[str, Any] = {"model": "m", "base_url": url, "max_tokens": 64, "seed": 7}
    fields["structured_outputs"] = "openai"
    return OpenAIModel.model_validate({**fields, **kw})


def both(cfg: OpenAIModel, temperature: float = 0.0) -> dict[str, ChatCompletionClient]:
    return {
        "lean": build_lean_client(cfg, temperature=temperature),
        "sdk": build_openai_client(cfg, temperature=temperature),
    }
