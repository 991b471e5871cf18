"""`report --explain` shows MACRS's reasoning and leaves other shapes out: InteRecAgent's
`candidates` is a count, and a damaged store may hold anything."""

from __future__ import annotations

from typing import Any

import pytest

from macrs_sim.analysis.report.transcript import render_transcript
from macrs_sim.protocol import DialogueResult, Exchange, SystemTurn, UserTurn


def _result(explain: dict[str, Any], system: str = "IRA", sample: str = "s-1") -> DialogueResult:
    ex = Exchange(turn=1, system=SystemTurn(act="ask", text="Which era?", explain=explain),
                  user=UserTurn(text="The 90s."))  # fmt: skip
    return DialogueResult(dialogue_id="d", system=system, sample_id=sample, target_id="m2",
                          status="failure", max_turns=5, opening=UserTurn(text="Hi"),
                          exchanges=(ex,))  # fmt: skip


@pytest.mark.parametrize(
    "explain",
    [
        {"candidates": 12, "mode": "plan_first", "attempts": [{"plan": []}]},  # InteRecAgent
        {
            "candidates": {"ask": "not a mapping"},
            "planner": ["x"],
            "suggestions": "y",
            "experiences": "z",
        },  # fmt: skip
    ],
)
def test_unknown_explain_shapes_are_left_out(explain: dict[str, Any]) -> None:
    text = render_transcript(_result(explain), explain=True)
    assert "how the system decided" in text
    assert "planner chose" not in text and "suggestion for" not in text


def test_a_macrs_explain_is_shown() -> None:
    explain = {"candidates": {"ask": {"text": "Which era?", "item_title": ""}},
               "planner": {"step1": "Read.", "choice": "ask"}}  # fmt: skip
    text = render_transcript(_result(explain), explain=True)
    assert "  - candidate *ask*: Which era?" in text
    assert "  - planner chose *ask* (step1: Read.)" in text


def test_the_heading_escapes_names_from_the_store() -> None:
    text = render_transcript(_result({}, system="A|B", sample="<s>"))
    assert text.startswith("### A\\|B · &lt;s&gt; · FAIL\n")
