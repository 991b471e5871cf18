"""What a person sees: explain payloads and turns, rendered as plain text (no colour)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from macrs_sim.interactive.explain import render_explain
from macrs_sim.interactive.render import ChatView
from macrs_sim.protocol import Item, ItemRef, SystemTurn

MACRS_EXPLAIN: dict[str, Any] = {
    "candidates": {
        "ask": {"text": "Which era?", "item_title": None},
        "chat": {"text": "I love [bold]noir[/bold].", "item_title": None},
        "recommend": {"text": "Try Heat.", "item_title": "Heat"},
    },
    "planner": {
        "step1": "Asked twice.",
        "step2": "Enough info.",
        "step3": "Recommend.",
        "choice": "recommend",
    },
    "profile": {
        "current_demand": [{"attribute": "genre", "value": "crime"}],
        "browsing_history": ["Alien"],
    },
    "suggestions": {"ask": "Ask about the era."},
    "experiences": ["Ask first."],
    "strategy_reflection": None,
}


def screen(*renderables: Any) -> list[str]:
    out = io.StringIO()
    console = Console(file=out, width=70, color_system=None)
    for r in renderables:
        console.print(r)
    return [line.rstrip() for line in out.getvalue().splitlines()]


def test_macrs_explain_shows_candidates_planner_profile_and_suggestions() -> None:
    # Model text stays literal: "[bold]" is not rich markup here.
    assert screen(render_explain(MACRS_EXPLAIN, "recommend")) == [
        "candidates",
        "  ┃ act       ┃ reply                     ┃ item",
        "━━╇━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━",
        "  │ ask       │ Which era?                │",
        "  │ chat      │ I love [bold]noir[/bold]. │",
        "→ │ recommend │ Try Heat.                 │ Heat",
        "planner      step1: Asked twice.",
        "             step2: Enough info.",
        "             step3: Recommend.",
        "             choice: recommend",
        "profile      genre = crime",
        "             browsing history: Alien",
        "suggestions  ask: Ask about the era.",
        "experiences  • Ask first.",
    ]


def test_any_other_explain_is_rendered_generically() -> None:
    tool_plan = {
        "plan": [{"tool": "sql", "args": {"genre": "Crime"}}, {"tool": "rank", "args": {}}],
        "candidates_seen": 12,
    }
    assert screen(render_explain(tool_plan, "recommend")) == [
        "candidates_seen  12",
        "plan",
        "├── 1",
        "│   ├── tool: sql",
        "│   └── args",
        "│       └── genre: Crime",
        "└── 2",
        "    ├── tool: rank",
        "    └── args: {}",
    ]
    assert screen(render_explain({}, "chat")) == ["(this system explains nothing)"]


def test_a_turn_with_grounded_and_unknown_items() -> None:
    out = io.StringIO()
    view = ChatView(Console(file=out, width=70, color_system=None))
    view.welcome("MACRS", "macrs", "scripted", Item(item_id="m1", title="Heat", year=1995), 5)
    items = (ItemRef(title="Heat", item_id="m1", score=1.0, method="exact"), ItemRef(title="Zzz"))
    view.system_turn(
        2, "MACRS", SystemTurn(act="recommend", text="Try [red]Heat[/red].", items=items)
    )
    assert [line.rstrip() for line in out.getvalue().splitlines()] == [
        "Chatting with MACRS (macrs, scripted model)",
        "Scored session: your target is Heat (1995) (id m1); at most 5 turns.",
        "Describe what you want; don't name the title.",
        "Type /quit (or press Ctrl-D or Ctrl-C) to end.",
        "MACRS · turn 2/5 · recommend",
        "  Try [red]Heat[/red].",
        "  ↳ Heat  = m1 (exact)  ← your target",
        "  ↳ Zzz  (not in the catalog)",
    ]
