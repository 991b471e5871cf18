from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from autogen_core.models import LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.config import EmbeddedModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm import CallContext, LlamaCppClient, calling, complete_json, preflight
from macrs_sim.llm.embedded import response_format, to_chat_dicts
from macrs_sim.llm.gguf import default_gguf_path
from tests.cores import worker_cores


class Reply(BaseModel):
    answer: str


def test_messages_and_response_format() -> None:
    msgs: list[LLMMessage] = [SystemMessage(content="s"), UserMessage(content="u", source="x")]
    assert to_chat_dicts(msgs) == [
        {"role": "system", "content": "s"},
        {"role": "user", "content": "u"},
    ]
    # Unbounded strings get a maxLength so a grammar-forced reply always closes.
    bounded = Reply.model_json_schema()
    bounded["properties"]["answer"]["maxLength"] = 240
    assert response_format(Reply) == {"type": "json_object", "schema": bounded}
    assert response_format(Reply, 50)["schema"]["properties"]["answer"]["maxLength"] == 50  # type: ignore[index]


def test_string_cap_follows_the_token_budget() -> None:
    from macrs_sim.agents.macrs.schemas import PlannerOutput, StrategyOutput, UserProfile
    from macrs_sim.llm.embedded import string_cap

    # Keys cost characters too: StrategyOutput's five keys (13+14+15+20+10 = 72 chars) plus
    # 6 each for quotes, colon and comma, plus the braces: 72 + 30 + 2 = 104. Five free
    # strings at 256 tokens: (3 * 256 - 104) // 6 = 110 characters each.
    assert string_cap(StrategyOutput.model_json_schema(), 256, 240) == 110
    # At 64 tokens the keys take more than half the budget: (192 - 104) // 6 = 14 -> floor 16.
    assert string_cap(StrategyOutput.model_json_schema(), 64, 240) == 16
    # 3 strings plus an enum (not free text): keys 3 * (5 + 6) + (6 + 6) = 45, the longest
    # choice "recommend" with quotes 11, braces 2 -> 58; (192 - 58) // 4 = 33.
    assert string_cap(PlannerOutput.model_json_schema(), 64, 240) == 33
    # A list of {attribute, value} pairs counts as 3 items x 2 strings, plus a list of 3
    # strings: 9 leaves. Keys: current_demand 20 + array (2 + 3 x (15 + 11 + 2)) = 106,
    # browsing_history 22 + array 2 = 24, braces 2 -> 132; (768 - 132) // 10 = 63.
    assert string_cap(UserProfile.model_json_schema(), 256, 240) == 63
    # Never above the configured cap, never below 16.
    assert string_cap(Reply.model_json_schema(), 4096, 240) == 240
    assert string_cap(StrategyOutput.model_json_schema(), 8, 240) == 16
    assert response_format(True) == {"type": "json_object"}
    assert response_format(None) is None


def test_missing_llama_cpp_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import fails
    with pytest.raises(ModelUnavailableError, match=r"pip install 'macrs-sim\[embedded\]'"):
        LlamaCppClient(tmp_path / "m.gguf")


async def test_preflight_rejects_a_bad_path(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailableError, match="expected a GGUF file"):
        await preflight(EmbeddedModel(path=str(tmp_path / "none.gguf")))


@pytest.mark.embedded
async def test_default_model_answers_a_schema() -> None:
    path = default_gguf_path()
    start = time.perf_counter()
    client = LlamaCppClient(
        path, n_ctx=1024, n_threads=worker_cores(), max_tokens=32, temperature=0.0
    )
    load_s = time.perf_counter() - start
    messages: list[LLMMessage] = [
        SystemMessage(content="Reply with a JSON object."),
        UserMessage(content='What is the capital of France? Use {"answer": ...}.', source="user"),
    ]
    try:
        start = time.perf_counter()
        with calling(CallContext(role="test")):
            reply = await complete_json(client, messages, Reply, retries=0)
        gen_s = time.perf_counter() - start
    finally:
        await client.close()
    usage = client.total_usage()
    assert reply.answer.strip()
    assert 0 < usage.completion_tokens <= 32
    print(
        f"\nembedded: load {load_s:.2f}s, {usage.prompt_tokens} prompt + "
        f"{usage.completion_tokens} completion tokens in {gen_s:.2f}s "
        f"({usage.completion_tokens / gen_s:.1f} tok/s incl. prompt), answer={reply.answer!r}"
    )
