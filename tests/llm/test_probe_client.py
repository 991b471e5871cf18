"""`structured_outputs = "auto"`: preflight's probe goes through the client `[model] client`
names, as the campaign's own calls do (it always went through the openai SDK before, so a
`client = "lean"` campaign still made its first request with the SDK)."""

from __future__ import annotations

import pytest

from macrs_sim.config import OpenAIModel
from macrs_sim.llm.factory import preflight
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.probe import PROBE_MESSAGES


def sent_by_sdk(headers: dict[str, str]) -> bool:
    """The openai SDK names itself in its headers; the lean client (aiohttp) does not."""
    return "x-stainless-lang" in headers or headers.get("user-agent", "").startswith("AsyncOpenAI")


@pytest.mark.parametrize("client", ["lean", "sdk"])
async def test_the_auto_probe_uses_the_configured_client(client: str) -> None:
    async with FakeOpenAIServer() as srv:
        cfg = OpenAIModel.model_validate(
            {"model": "m", "base_url": srv.base_url, "api_key_env": None, "client": client}
        )
        assert cfg.structured_outputs == "auto"
        resolved = await preflight(cfg)
    assert isinstance(resolved, OpenAIModel) and resolved.structured_outputs == "openai"
    (probe,) = [r for r in srv.requests if r.path.endswith("/chat/completions")]
    assert probe.body["messages"][0]["content"] == PROBE_MESSAGES[0].content
    assert sent_by_sdk(probe.headers) == (client == "sdk")
