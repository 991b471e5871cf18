"""A real OpenAI-compatible server: llama-cpp-python's own (`python -m llama_cpp.server`,
the `embedded` extra), serving the embedded model's GGUF on 127.0.0.1 (one for the test run,
tests/llama_server.py), through the lean client. It refuses `response_format: json_schema`
with HTTP 500 (so modes "openai" and "vllm"); text, "json_object" and "prompt" work; `auto`
must find `json_object` and the campaign must finish."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import openai
import pytest
from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import OpenAIModel, parse_scenario
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.lean import build_lean_client
from macrs_sim.llm.modes import Mode
from macrs_sim.llm.probe import forget_probes, known_mode
from macrs_sim.llm.structured import complete_json
from macrs_sim.store import RunStore
from tests.llama_server import LLAMA_ALIAS

pytestmark = [
    pytest.mark.embedded,
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
]
MODEL = LLAMA_ALIAS  # the shared server's (tests/conftest.py: `llama_server`)


@pytest.fixture(autouse=True)
def _no_remembered_probes() -> Iterator[None]:
    """The server is shared with the backend matrix: `auto`'s mode remembered for its URL
    by an earlier test must not answer for this one's probe."""
    forget_probes()
    yield
    forget_probes()


async def test_a_campaign_through_llama_cpp_python_server(
    llama_server: str, tmp_path: Path
) -> None:
    sc = parse_scenario(
        {
            "name": "llama-server",
            "model": {
                "backend": "openai",
                "model": MODEL,
                "base_url": llama_server,  # structured_outputs: "auto" by default
                "max_tokens": 64,
                "max_concurrency": 1,  # the server answers one request at a time
                "timeout_s": 300,
            },
            "data": {"n_samples": 1},
            # Short on purpose: two model calls (one turn, a final list of 3) after the probe.
            "protocol": {"max_turns": 1, "final_list_k": 3},
            "simulator": {"kind": "agenda"},
            "campaign": {"output_dir": str(tmp_path / "runs"), "concurrency": 1},
            "cache": {"enabled": False},
            "systems": [{"name": "LLM", "kind": "single_llm"}],
        }
    )
    assert sc.model.structured_outputs == "auto"  # type: ignore[union-attr]
    result = await run_campaign_async(sc, progress=False, report=False)
    assert known_mode(llama_server, MODEL) == "json_object"
    assert (result.stored, result.expected, result.status) == (1, 1, "finished")
    with RunStore.open(result.store_path) as store:
        (dialogue,) = store.read_results()
        calls = store.read_calls()
    assert dialogue.error is None and dialogue.status in ("success", "failure")
    assert len(calls) >= 2 and all(c.ok for c in calls), [c.error for c in calls if not c.ok]


class Pick(BaseModel):
    title: str


PICK_PROMPT: list[LLMMessage] = [
    SystemMessage(content='Answer with JSON only, like {"title": "Heat"}.'),
    UserMessage(content="Name one heist film.", source="user"),
]


def lean_client(url: str, mode: Mode) -> ChatCompletionClient:
    cfg = OpenAIModel(
        model=MODEL, base_url=url, structured_outputs=mode, max_tokens=48, seed=0, timeout_s=300
    )
    return build_lean_client(cfg, temperature=0.0)


async def test_the_lean_client_gets_text_from_the_server(llama_server: str) -> None:
    client = lean_client(llama_server, "openai")
    try:
        hello = [UserMessage(content="Say hello.", source="user")]
        result = await client.create(hello, extra_create_args={"max_tokens": 8})
    finally:
        await client.close()
    assert isinstance(result.content, str) and result.content.strip()
    assert result.usage.prompt_tokens > 0 and result.usage.completion_tokens > 0


@pytest.mark.parametrize("mode", ["json_object", "prompt"])
async def test_the_lean_client_gets_json_in_the_modes_the_server_supports(
    llama_server: str, mode: Mode
) -> None:
    client = lean_client(llama_server, mode)
    try:
        with calling(CallContext(role="test")):
            pick = await complete_json(client, PICK_PROMPT, Pick, retries=1)
    finally:
        await client.close()
    assert pick.title.strip()


@pytest.mark.parametrize("mode", ["openai", "vllm"])
async def test_json_schema_modes_are_refused_with_one_clear_line(
    llama_server: str, mode: Mode
) -> None:
    """This server answers `response_format: json_schema` (both modes send it; "vllm" adds
    `structured_outputs`) with HTTP 500: the SDK's error class, and a line that says what to
    set instead."""
    client = lean_client(llama_server, mode)
    try:
        with pytest.raises(openai.InternalServerError) as refused:
            await client.create(PICK_PROMPT, json_output=Pick)
    finally:
        await client.close()
    line = str(refused.value)
    assert refused.value.status_code == 500 and "\n" not in line
    assert line.startswith(f"{llama_server} rejected the request as malformed (HTTP 500: ")
    assert "set [model] structured_outputs to " in line  # what to set instead
    assert line.endswith('"json_object" or "prompt" or "auto"')
