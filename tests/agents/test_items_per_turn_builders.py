"""RecMind and ToolRec name no more items a turn than the protocol counts (issue 38 §1):
their campaign builders cap `recommend_k` at protocol.max_items_per_turn."""

from __future__ import annotations

from typing import Any

import pytest

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.recmind import build as recmind_build
from macrs_sim.agents.recmind import spec as recmind_spec
from macrs_sim.agents.toolrec import spec as toolrec_spec
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.config import ProtocolConfig
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary


def _ctx(prepared: object, limit: int) -> SystemContext:
    return SystemContext(
        name="s", dialogue_id="d", client=ScriptedChatCompletionClient(), prompts=PromptLibrary(),
        dataset=None, grounder=None, protocol=ProtocolConfig(max_items_per_turn=limit),  # type: ignore[arg-type]
        prepared=prepared,
    )  # fmt: skip


@pytest.mark.parametrize(("asked", "limit", "kept"), [(3, 1, 1), (3, 5, 3)])
def test_recmind_recommends_at_most_the_limit(
    monkeypatch: pytest.MonkeyPatch, asked: int, limit: int, kept: int
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(recmind_build, "reasoner", lambda opts, res, **kw: None)
    monkeypatch.setattr(recmind_spec, "RecMind", lambda *a, **kw: seen.setdefault("opts", a[3]))
    res = object.__new__(recmind_build.RecMindResources)
    options = recmind_spec.RecMindSystemOptions(name="r", recommend_k=asked)
    recmind_spec.build_system(options, _ctx(res, limit))
    assert seen["opts"].recommend_k == kept


@pytest.mark.parametrize(("asked", "limit", "kept"), [(3, 1, 1), (3, 5, 3)])
def test_toolrec_recommends_at_most_the_limit(
    monkeypatch: pytest.MonkeyPatch, asked: int, limit: int, kept: int
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr(
        toolrec_spec, "build", lambda opts, prepared, **kw: seen.setdefault("opts", opts)
    )
    options = toolrec_spec.ToolRecSystemOptions(name="t", recommend_k=asked)
    toolrec_spec.build_system(options, _ctx(object.__new__(ToolRecPrepared), limit))
    assert seen["opts"].recommend_k == kept
