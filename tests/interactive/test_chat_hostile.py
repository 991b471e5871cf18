"""`chat` with a model that answers in escape codes: nothing but text reaches the terminal
(issue 27 group 3). The console has no colour, so any ESC byte on screen came from a model."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console

from macrs_sim.data.catalog import Catalog
from macrs_sim.interactive.chat import ChatOptions, chat
from macrs_sim.interactive.person import ReadReply
from macrs_sim.interactive.render import ChatView
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.protocol import SystemTurn
from tests.interactive.chat_fixtures import rules_recommending, scripted_scenario

OSC = "\x1b]0;pwned\x07"  # sets the terminal's title
CLEAR = "\x1b[2J"  # clears the screen
RLO = "\u202e"  # shows what follows right to left
CONTROLS = ("\x1b", "\x07", "\x9b", RLO)


def person(*texts: str) -> ReadReply:
    pending: Iterator[str] = iter(texts)

    async def read(turn: SystemTurn | None) -> str:
        return next(pending)

    return read


async def test_model_escape_codes_never_reach_the_terminal(
    tmp_path: Path, catalog: Catalog
) -> None:
    scenario = scripted_scenario(tmp_path, catalog, max_structured_retries=0)
    rules = rules_recommending(catalog, f"{OSC}Up{CLEAR} (2009)")
    rules["macrs.ask"] = lambda req: f"{CLEAR}Which{RLO} era?{OSC}\r\nOr a \x9b31mgenre?"
    planner = rules["macrs.planner"]

    def broken_on_turn_3(req: ScriptedRequest) -> object:
        if req.context.turn == 3:
            raise RuntimeError(f"server said {OSC}no{CLEAR}\nmore")
        return planner(req)

    rules["macrs.planner"] = broken_on_turn_3  # type: ignore[assignment]
    out = io.StringIO()
    view = ChatView(Console(file=out, width=100, color_system=None), explain=True)
    options = ChatOptions(session_id="person-1")
    outcome = await chat(scenario, options, person("hi", "older", "no"), view, scripted_rules=rules)
    screen = out.getvalue()
    assert [c for c in CONTROLS if c in screen] == []
    assert "\n  Which era? \n  Or a genre?\n" in screen  # rich pads a block to its width
    assert "  ↳ Up (2009)  (not in the catalog)\n" in screen
    assert "\nsession ended by an error: RuntimeError: server said no\n" in screen
    # The store keeps what the model said, as it said it: only the screen is cleaned.
    assert outcome.result is not None
    assert outcome.result.exchanges[0].system.text.startswith(f"{CLEAR}Which{RLO} era?")
    assert outcome.result.error is not None and OSC in outcome.result.error
