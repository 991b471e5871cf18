"""A hand-made run with hostile content, so the viewer's values can be worked out by hand.

Catalog: tests/conftest.py (m1 "Heat" 1995 and m7 "Heat" 1986: a remake with the same name).
Samples: s-1 -> m1 (bucket "top 10%"); s-2 -> m404, an id that points nowhere (no bucket).
Dialogues (max_turns 5):
  MACRS:s-1   ask (reply is an HTML script tag, CRLF), then recommend "heat " -> m1, accepted:
              success at turn 2; 4 calls: turn 1 two (one cached, one failed), turn 2 one,
              one with no turn
  single:s-1  recommend m7 (rejected): failure; fallback list m7, m1 (target, rank 2), an
              ungrounded title; explain holds a tool plan with HTML in it
  MACRS:s-2   no exchanges, error with HTML in it
  single:s-2  ask: failure, empty fallback list
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from macrs_sim.protocol import (
    DialogueResult,
    Exchange,
    ItemRef,
    LLMCallRecord,
    Sample,
    SystemTurn,
    UserTurn,
)
from macrs_sim.store import RunStore

XSS = "<script>alert(1)</script>"
RUN_NAME = "<b>hostile</b> run"
MACRS_EXPLAIN = {
    "candidates": {
        "ask": {"text": f"{XSS}\r\nWhich era?", "item_title": None},
        "chat": {"text": "I love heists.", "item_title": None},
        "recommend": {"text": "Try Heat.", "item_title": "Heat"},
    },
    "planner": {"step1": "Read.", "step2": "Weighed.", "step3": "Chose.", "choice": "ask"},
    "profile": {"current_demand": [{"attribute": "genre", "value": "crime"}]},
    "suggestions": {},
    "experiences": ["Ask before recommending."],
    "reported_act": "chat",
}
TOOL_EXPLAIN = {"tool_plan": [{"tool": "sql", "input": {"query": "<b>SELECT</b>"}}]}


def _call(dialogue_id: str, system: str, turn: int | None, **kw: object) -> LLMCallRecord:
    fields: dict[str, object] = {"role": "planner", "model": "hand", "prompt_tokens": 100}
    fields |= {"completion_tokens": 10, "latency_s": 0.25} | kw
    return LLMCallRecord.model_validate(
        {"dialogue_id": dialogue_id, "system": system, "turn": turn, **fields}
    )


def _ex(
    turn: int,
    act: str,
    text: str,
    items: tuple[ItemRef, ...] = (),
    explain: dict[str, Any] | None = None,
    reply: str = "No.",
    accepted: bool = False,
) -> Exchange:
    return Exchange(
        turn=turn,
        system=SystemTurn(act=act, text=text, items=items, explain=explain or {}),
        user=UserTurn(text=reply, accepted=accepted),
    )


def _result(system: str, sample: str, target: str, status: str, **kw: object) -> DialogueResult:
    fields: dict[str, object] = {"dialogue_id": f"{system}:{sample}", "system": system}
    fields["sample_id"] = sample
    fields |= {"target_id": target, "status": status, "max_turns": 5}
    fields |= {"opening": {"text": "Hi, a film please."}} | kw
    return DialogueResult.model_validate(fields)


def dialogues() -> list[tuple[DialogueResult, list[LLMCallRecord]]]:
    heat = ItemRef(title="heat ", item_id="m1", score=0.93, method="fuzzy")
    remake = ItemRef(title="Heat (1986)", item_id="m7", score=1.0, method="exact")
    nowhere = ItemRef(title="Nope <i>x</i>", item_id=None, score=0.0, method="none")
    a_turns = (
        _ex(1, "ask", f"{XSS}\r\nWhich era?", explain=MACRS_EXPLAIN),
        _ex(2, "recommend", "Try Heat.", (heat,), reply="Yes!", accepted=True),
    )
    a = _result("MACRS", "s-1", "m1", "success", success_turn=2, exchanges=a_turns)
    a_calls = [
        _call(a.dialogue_id, "MACRS", 1, cached=True),
        _call(a.dialogue_id, "MACRS", 1, role="ask", ok=False, error="timeout"),
        _call(a.dialogue_id, "MACRS", 2, role="recommend"),
        _call(a.dialogue_id, "MACRS", None, role="info_reflector"),
    ]
    b_turns = (_ex(1, "recommend", "Heat?", (remake,), explain=TOOL_EXPLAIN),)
    b = _result(
        "single", "s-1", "m1", "failure", exchanges=b_turns, final_list=(remake, heat, nowhere)
    )
    c = _result("MACRS", "s-2", "m404", "error", error="RuntimeError: <img src=x onerror=alert(2)>")
    d = _result("single", "s-2", "m404", "failure", exchanges=(_ex(1, "ask", "Era?"),))
    return [(a, a_calls), (b, [_call(b.dialogue_id, "single", 1)]), (c, []), (d, [])]


def samples() -> list[Sample]:
    return [
        Sample(
            sample_id="s-1", user_id="u1", history=("m3", "m99"), target_id="m1", bucket="top 10%"
        ),
        Sample(sample_id="s-2", user_id="u2", history=("m4",), target_id="m404"),
    ]


def make_hostile_run(root: Path) -> Path:
    run_dir = root / "hostile-run"
    run_dir.mkdir(parents=True)
    systems = '[[systems]]\nname = "MACRS"\nkind = "macrs"\n\n[[systems]]\nname = "single"\n'
    (run_dir / "scenario.resolved.toml").write_text(systems + 'kind = "single_llm"\n')
    with RunStore.create(run_dir / "store.sqlite") as store:
        store.set_meta("scenario_name", RUN_NAME)
        store.set_meta("systems", json.dumps(["MACRS", "single"]))
        store.set_meta("expected_dialogues", "4")
        store.set_meta("status", "finished")
        store.write_samples(samples())
        for result, calls in dialogues():
            store.write_dialogue(result, calls)
    return run_dir
