"""report.md over a hostile store: model, server and dataset text is shown as typed, never as
Markdown, HTML or control codes (issue 27 group 3).

Catalog: tests/conftest.py (m1 "Heat" 1995, m2 "The Matrix" 1999, m3 "Up" 2009).
Dialogues (max_turns 5), every title below is hostile and matches no catalog item:
  MACRS:s-1  turn 1 ask (text: a script tag, a heading, a table row; explain full of them),
             turn 2 recommends XSS, PIPES, LINK (not accepted): failure; fallback list: the
             target said as OSC + "Heat" (fuzzy, 0.91), so the audit table quotes it
  LLM:s-1    turn 1 recommends OSC, CLEAR + "Up", "evil" RLO "txt"; turn 2's act, as a
             server may name it, is "small | <b>talk</b>": failure
  MACRS:s-2  turn 1 recommends m2 "The Matrix" (accepted): success
  LLM:s-2    error whose message quotes a server (an escape sequence and an img tag)
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.analysis.report.full import ReportOptions, build_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import DialogueResult, Exchange, ItemRef, SystemTurn, UserTurn
from macrs_sim.store import RunStore
from tests.analysis.handmade_runs import make_sample

XSS = "<script>alert(1)</script>"
PIPES = "| a | b |"
LINK = "[x](javascript:alert(1))"
OSC = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
RLO = "\u202e"
ACT = "small | <b>talk</b>"
SERVER_ERROR = f"RuntimeError: HTTP 500 {OSC}<img src=x onerror=alert(2)>"
EXPLAIN: dict[str, Any] = {
    "candidates": {"ask": {"text": f"{CLEAR}Which era?", "item_title": LINK}},
    "planner": {"step1": f"Read {XSS}.", "choice": "ask"},
    "profile": {"mood": PIPES},
    "suggestions": {"ask": "# shout"},
    "experiences": [f"Ask{RLO} first."],
}
RAW = [XSS, "<script", "<img", "<b>", PIPES, LINK, OSC, "\x1b", "\x07", CLEAR, RLO]


def _none(title: str) -> ItemRef:
    return ItemRef(title=title, item_id=None, score=0.0, method="none")


def _ex(turn: int, act: str, text: str, items: tuple[ItemRef, ...] = (), **kw: Any) -> Exchange:
    explain = kw.pop("explain", {})
    return Exchange(
        turn=turn,
        system=SystemTurn(act=act, text=text, items=items, explain=explain),
        user=UserTurn(text=kw.pop("reply", "No."), accepted=kw.pop("accepted", False)),
    )


def _result(system: str, sample: str, target: str, status: str, **kw: Any) -> DialogueResult:
    return DialogueResult.model_validate(
        {
            "dialogue_id": f"{system}:{sample}",
            "system": system,
            "sample_id": sample,
            "target_id": target,
            "status": status,
            "max_turns": 5,
            "opening": {"text": "Hi, a film please."},
            **kw,
        }
    )


def dialogues() -> list[DialogueResult]:
    ask = _ex(1, "ask", f"{XSS}\n# pwned\n| a | b |", explain=EXPLAIN, reply=f"{LINK} {CLEAR}")
    rec = _ex(2, "recommend", "Try these.", (_none(XSS), _none(PIPES), _none(LINK)))
    said = ItemRef(title=f"{OSC}Heat", item_id="m1", score=0.91, method="fuzzy")
    llm = _ex(1, "recommend", "Here.", (_none(OSC), _none(f"{CLEAR}Up"), _none(f"evil{RLO}txt")))
    matrix = ItemRef(title="The Matrix", item_id="m2", score=1.0, method="exact")
    return [
        _result("MACRS", "s-1", "m1", "failure", exchanges=(ask, rec), final_list=(said,)),
        _result("LLM", "s-1", "m1", "failure", exchanges=(llm, _ex(2, ACT, "Hm."))),
        _result(
            "MACRS",
            "s-2",
            "m2",
            "success",
            success_turn=1,
            exchanges=(_ex(1, "recommend", "The Matrix!", (matrix,), accepted=True),),
        ),
        _result("LLM", "s-2", "m2", "error", error=SERVER_ERROR),
    ]


def make_hostile_run(root: Path) -> Path:
    run_dir = root / "hostile"
    run_dir.mkdir(parents=True)
    systems = '[[systems]]\nname = "MACRS"\nkind = "macrs"\n\n[[systems]]\nname = "LLM"\n'
    (run_dir / "scenario.resolved.toml").write_text(systems + 'kind = "single_llm"\n')
    with RunStore.create(run_dir / "store.sqlite") as store:
        store.set_meta("scenario_name", "hostile")
        store.set_meta("systems", json.dumps(["MACRS", "LLM"]))
        store.set_meta("expected_dialogues", "4")
        store.set_meta("status", "finished")
        store.write_samples([make_sample("s-1", "m1"), make_sample("s-2", "m2")])
        for result in dialogues():
            store.write_dialogue(result, [])
    return run_dir


@pytest.fixture
def text(tmp_path: Path, catalog: Catalog) -> str:
    run = load_run(make_hostile_run(tmp_path))
    cases = ("MACRS:s-1", "LLM:s-1", "LLM:s-2")
    options = ReportOptions(n_resamples=50, case_ids=cases, explain=True)
    return build_report([run], tmp_path / "out", options, lambda r: catalog).read_text()


def test_no_raw_markup_or_control_code_reaches_the_report(text: str) -> None:
    found = [raw for raw in RAW if raw in text]
    assert found == []
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)
    assert "\n# pwned" not in text and "\n# shout" not in text
    assert not re.search(r"(?<!\\)\]\(javascript", text)  # no link, whatever precedes it


def test_every_table_keeps_its_columns(text: str) -> None:
    """A title holding pipes adds no cell: each table's rows have its header's cell count."""
    tables: list[list[str]] = [[]]
    for line in text.split("\n"):
        if line.startswith("|"):
            tables[-1].append(line)
        elif tables[-1]:
            tables.append([])
    shapes = [{len(re.findall(r"(?<!\\)\|", row)) for row in t} for t in tables if t]
    assert len(shapes) >= 10 and all(len(s) == 1 for s in shapes), shapes


def test_ungrounded_titles_and_audit_show_each_title_readably(text: str) -> None:
    xss = "&lt;script&gt;alert(1)&lt;/script&gt;"
    # Most frequent first, then by title as typed ("<" < "[" < "|"; ESC "[" < ESC "]").
    assert f'- MACRS: "{xss}" ×1, "[x\\](javascript:alert(1))" ×1, "\\| a \\| b \\|" ×1' in text
    assert '- LLM: "␛[2JUp" ×1, "␛]0;pwned␇" ×1, "evil⟨U+202E⟩txt" ×1' in text
    assert "| ␛]0;pwned␇Heat | Heat (1995) | fuzzy | 0.910 | 1 |" in text


def test_transcripts_quote_model_and_server_text_as_text(text: str) -> None:
    assert "### LLM · s-2 · ERROR: RuntimeError: HTTP 500 ␛]0;pwned␇&lt;img src=x" in text
    assert "> &lt;script&gt;alert(1)&lt;/script&gt;\n> \\# pwned\n> \\| a \\| b \\|\n" in text
    assert "> [x\\](javascript:alert(1)) ␛[2J\n" in text
    recommended = "Recommended: &lt;script&gt;alert(1)&lt;/script&gt; (not in catalog), \\| a"
    assert recommended in text
    assert "1. ␛]0;pwned␇Heat (m1, fuzzy 0.91) ← target" in text
    assert "  - candidate *ask* [[x\\](javascript:alert(1))]: ␛[2JWhich era?" in text
    assert "  - planner chose *ask* (step1: Read &lt;script&gt;alert(1)&lt;/script&gt;.)" in text
    assert '  - user profile: {"mood": "\\| a \\| b \\|"}' in text
    assert "  - suggestion for ask: # shout" in text
    assert "  - planner experience: Ask⟨U+202E⟩ first." in text
    assert "**Turn 2 · small \\| &lt;b&gt;talk&lt;/b&gt;**" in text


def test_an_act_a_server_named_stays_in_its_cell(text: str) -> None:
    """Tables built from act names (transitions) pass every cell through the table guard."""
    assert "| small \\| &lt;b>talk&lt;/b> |" in text
