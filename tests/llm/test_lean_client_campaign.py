"""The lean client in whole campaigns: every dialogue, call and request body the same as
through autogen's SDK client; the factory's choice; any autogen client still welcome."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from autogen_ext.models.openai import OpenAIChatCompletionClient

from macrs_sim.agents.macrs.system import MACRSRecommender
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import OpenAIModel, parse_scenario
from macrs_sim.llm import CallLog, build_client
from macrs_sim.llm.lean import LeanChatClient
from macrs_sim.llm.openai_backend import UNKNOWN_MODEL_INFO
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, UserTurn
from macrs_sim.store import RunStore
from tests.llm.lean_twins import RawServer

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")


async def campaign(tmp_path: Path, client: str) -> tuple[list[Any], list[Any], list[bytes]]:
    """Two MACRS dialogues of two turns, one at a time, through a server that fails the
    12th request with a 500 and the 20th with a 429 (both retried)."""
    async with RawServer() as srv:
        srv.fail(500, at=12)
        srv.fail(429, retry_after="0", at=20)
        model = {"backend": "openai", "model": "m", "base_url": srv.base_url, "client": client}
        scenario = parse_scenario(
            {
                "name": f"twin-{client}",
                "model": {**model, "structured_outputs": "openai", "backoff_base_s": 0.01},
                "data": {"n_samples": 2},
                "protocol": {"max_turns": 2},
                "campaign": {"output_dir": str(tmp_path / client), "concurrency": 1},
                "cache": {"enabled": False},
                "systems": [{"name": "MACRS", "kind": "macrs"}],
            }
        )
        result = await run_campaign_async(scenario, progress=False)
        raw = sorted(srv.raw)  # roles of one turn may ask in parallel
    with RunStore.open(result.store_path) as store:
        dialogues = [r.model_dump() for r in store.read_results()]
        calls = [c.model_dump(exclude={"latency_s"}) for c in store.read_calls()]
    return dialogues, sorted(calls, key=repr), raw


async def test_a_campaign_is_the_same_through_either_client(tmp_path: Path) -> None:
    lean = await campaign(tmp_path, "lean")
    sdk = await campaign(tmp_path, "sdk")
    dialogues, calls, raw = lean
    assert len(dialogues) == 2 and all(d["exchanges"] for d in dialogues)
    assert sum(not c["ok"] for c in calls) == 0  # both faults retried away
    assert len(raw) == len(calls) + 2  # the two failed attempts were sent too
    assert lean == sdk


def test_the_factory_builds_the_lean_client_unless_told_sdk() -> None:
    fields = {"model": "m", "base_url": "http://127.0.0.1:9/v1", "structured_outputs": "openai"}

    def backend(**kw: Any) -> Any:
        cfg = OpenAIModel.model_validate({**fields, **kw})
        client = build_client(cfg, temperature=0.0, log=CallLog())
        while hasattr(client, "inner"):  # accounting, retry, concurrency, wire
            client = client.inner
        return client

    assert isinstance(backend(), LeanChatClient)
    assert isinstance(backend(client="sdk"), OpenAIChatCompletionClient)
    with pytest.raises(ValueError, match="client"):
        OpenAIModel.model_validate({**fields, "client": "httpx"})


async def test_any_autogen_client_still_drives_an_agent() -> None:
    """A user's own ChatCompletionClient (here autogen's, straight from autogen-ext) is
    what a system takes; nothing in the framework needs the lean client."""
    async with RawServer() as srv:
        client = OpenAIChatCompletionClient(
            model="m", base_url=srv.base_url, api_key="EMPTY", model_info=UNKNOWN_MODEL_INFO
        )
        system = MACRSRecommender("MACRS", client, PromptLibrary(), dialogue_id="d1")
        state = DialogueState(dialogue_id="d1", opening=UserTurn(text="I want a heist film."))
        turn = await system.respond(state)
        await system.close()
    assert turn.act in ("ask", "chat", "recommend") and turn.text
    assert len(srv.raw) >= 4  # reflector, planner and the three candidate responders
