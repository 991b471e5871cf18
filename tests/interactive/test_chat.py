"""A whole chat session in process: a list of lines plays the person, scripted models."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from macrs_sim.cli import main
from macrs_sim.config import Scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import ConfigError
from macrs_sim.interactive.chat import (
    ChatOptions,
    ChatOutcome,
    chat,
    default_chat_scenario,
    pick_system,
)
from macrs_sim.interactive.person import ReadReply
from macrs_sim.interactive.render import ChatView
from macrs_sim.llm.scripted import Rule, ScriptedRequest
from macrs_sim.protocol import DialogueResult, SystemTurn
from macrs_sim.store import RunStore
from tests.interactive.chat_fixtures import (
    ASK_TEXT,
    OPENING,
    rules_recommending,
    scripted_scenario,
)


def person(*texts: str) -> ReadReply:
    pending: Iterator[str] = iter(texts)

    async def read(turn: SystemTurn | None) -> str:
        return next(pending)

    return read


def view(explain: bool = False) -> tuple[ChatView, io.StringIO]:
    out = io.StringIO()
    return ChatView(Console(file=out, width=100, color_system=None), explain=explain), out


async def run(
    scenario: Scenario, rules: dict[str, Rule], *lines: str, **options: object
) -> tuple[ChatOutcome, str]:
    shown, out = view(explain=bool(options.pop("explain", False)))
    opts = ChatOptions(session_id="person-1", **options)  # type: ignore[arg-type]
    outcome = await chat(scenario, opts, person(*lines), shown, scripted_rules=rules)
    return outcome, out.getvalue()


def stored(outcome: ChatOutcome) -> tuple[DialogueResult, dict[str, str]]:
    """The session's only dialogue as stored, and the store's meta."""
    assert outcome.run_dir is not None
    with RunStore.open(outcome.run_dir / "store.sqlite") as store:
        (result,) = store.read_results()
        return result, store.all_meta()


async def test_scored_session_succeeds_and_is_saved_as_a_run(
    tmp_path: Path, catalog: Catalog
) -> None:
    scenario = scripted_scenario(tmp_path, catalog)
    rules = rules_recommending(catalog, "The Matrix (1999)")
    outcome, screen = await run(
        scenario, rules, OPENING, "The nineties.", "Yes, that one!", target="the matrix"
    )
    assert outcome.reason == "accepted"
    run_dir = outcome.run_dir
    assert run_dir is not None
    assert run_dir.parent == tmp_path / "runs" and run_dir.name.startswith("t-chat-")
    assert "your target is The Matrix (1999) (id m2); at most 3 turns" in screen
    assert "MACRS · turn 2/3 · recommend" in screen and "← your target" in screen
    assert "success: the system recommended your target" in screen
    with RunStore.open(run_dir / "store.sqlite") as store:
        (result,) = store.read_results()
        (sample,) = store.read_samples()
        meta = store.all_meta()
        roles = {c.role for c in store.read_calls()}
    assert (result.system, result.status, result.success_turn) == ("MACRS", "success", 2)
    assert (result.dialogue_id, result.target_id, result.max_turns) == ("MACRS:person-1", "m2", 3)
    assert [(e.system.act, e.user.text, e.user.accepted) for e in result.exchanges] == [
        ("ask", "The nineties.", False),
        ("recommend", "Yes, that one!", True),
    ]
    assert result.opening.text == OPENING and result.final_list == ()
    assert (sample.user_id, sample.target_id, sample.opening) == ("person", "m2", OPENING)
    assert meta["user"] == "person" and meta["status"] == "finished"
    assert json.loads(meta["systems"]) == ["MACRS"] and meta["expected_dialogues"] == "1"
    assert json.loads(meta["chat"]) == {"scored": True, "ended_by": "accepted"}
    assert roles == {
        f"macrs.{r}" for r in ("ask", "chat", "recommend", "planner", "info_reflector")
    }
    resolved = (run_dir / "scenario.resolved.toml").read_text()
    assert 'name = "t-chat"' in resolved and "single-LLM" not in resolved
    assert main(["report", str(run_dir)]) == 0
    assert "| MACRS | 1 | 0 | 1.00 |" in (run_dir / "report.md").read_text()


async def test_scored_session_ends_with_the_final_list(tmp_path: Path, catalog: Catalog) -> None:
    scenario = scripted_scenario(tmp_path, catalog, max_turns=2)
    rules = rules_recommending(catalog, "Up (2009)")
    final = ["Up", "Alien", "Not A Film"]
    rules["final_list"] = lambda req: req.schema(titles=final)  # type: ignore[misc]
    outcome, screen = await run(scenario, rules, "hi", "older", "no", target="Alien (1979)")
    assert outcome.reason == "max_turns"
    assert "Final top-3 list:" in screen and " 2. ↳ Alien  = m4 (exact)  ← your target" in screen
    result, _ = stored(outcome)
    assert result.status == "failure" and len(result.exchanges) == 2
    assert [(i.title, i.item_id) for i in result.final_list] == [
        ("Up", "m3"),
        ("Alien", "m4"),
        ("Not A Film", None),
    ]


async def test_unscored_session_runs_until_quit(tmp_path: Path, catalog: Catalog) -> None:
    scenario = scripted_scenario(tmp_path, catalog, max_turns=1)
    rules = rules_recommending(catalog, "Up (2009)")
    outcome, screen = await run(scenario, rules, "hi", "more", "even more", "/quit", explain=True)
    assert outcome.reason == "quit"
    assert "Unscored session" in screen and "MACRS · turn 3 · chat" in screen
    assert "planner  step1: Reviewed acts." in screen and "choice: chat" in screen
    assert "profile  mood = light-hearted" in screen
    result, meta = stored(outcome)
    # Three system turns; the last, unanswered, is kept with an empty user text.
    assert [(e.turn, e.system.act, e.user.text) for e in result.exchanges] == [
        (1, "ask", "more"),
        (2, "recommend", "even more"),
        (3, "chat", ""),
    ]
    assert (result.status, result.target_id, result.max_turns) == ("failure", "", 3)
    assert json.loads(meta["chat"]) == {"scored": False, "ended_by": "quit"}


async def test_quitting_before_the_system_speaks_saves_nothing(
    tmp_path: Path, catalog: Catalog
) -> None:
    scenario = scripted_scenario(tmp_path, catalog)
    outcome, screen = await run(scenario, rules_recommending(catalog, "Up"), "/quit")
    assert outcome.run_dir is None and outcome.result is None
    assert "nothing to save" in screen
    assert not (tmp_path / "runs").exists() or not any(
        p.is_dir() for p in (tmp_path / "runs").iterdir()
    )


async def test_a_model_fault_ends_the_session_and_keeps_it(
    tmp_path: Path, catalog: Catalog
) -> None:
    scenario = scripted_scenario(tmp_path, catalog, max_structured_retries=0)
    rules = rules_recommending(catalog, "Up")
    planner = rules["macrs.planner"]

    def broken_on_turn_2(req: ScriptedRequest) -> object:
        if req.context.turn == 2:
            raise RuntimeError("planner fell over")
        return planner(req)

    rules["macrs.planner"] = broken_on_turn_2  # type: ignore[assignment]
    outcome, screen = await run(scenario, rules, "hi", "more")
    assert outcome.reason == "error"
    assert "session ended by an error: RuntimeError: planner fell over" in screen
    result, _ = stored(outcome)
    assert result.status == "error" and result.error == "RuntimeError: planner fell over"
    assert [(e.system.text, e.user.text) for e in result.exchanges] == [(ASK_TEXT, "more")]


async def test_bad_target_and_system_are_one_line_errors(tmp_path: Path, catalog: Catalog) -> None:
    scenario = scripted_scenario(tmp_path, catalog)
    with pytest.raises(ConfigError, match=r"^--target 'Zzyzx Road': no item of dataset"):
        await run(scenario, {}, "hi", target="Zzyzx Road")
    with pytest.raises(ConfigError) as err:
        pick_system(scenario, "RecMind")
    expected = "--system 'RecMind': scenario 't' has no such system (MACRS, single-LLM)"
    assert str(err.value) == expected
    assert not (tmp_path / "runs").exists()


def test_default_scenario_is_the_quickstarts_systems_on_the_embedded_model() -> None:
    scenario = default_chat_scenario()
    assert [(s.name, s.kind) for s in scenario.systems] == [
        ("MACRS", "macrs"),
        ("single-LLM", "single_llm"),
    ]
    assert scenario.model.backend == "embedded" and scenario.data.dataset == "demo"
    assert pick_system(scenario, None).name == "MACRS"
