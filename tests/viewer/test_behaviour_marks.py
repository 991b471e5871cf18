"""The viewer's export marks the turns that failed a behaviour check (issue 26)."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import DialogueResult, Exchange, SystemTurn, UserTurn
from macrs_sim.viewer.export import export_dialogue

SORRY = "I'm sorry, but I can't assist with that."
STATIC = Path(__file__).parents[2] / "macrs_sim" / "viewer" / "static"


def _result() -> DialogueResult:
    exchanges = (
        Exchange(turn=1, system=SystemTurn(act="ask", text=SORRY), user=UserTurn(text=SORRY)),
        Exchange(
            turn=2,
            system=SystemTurn(act="ask", text="What genre do you like?"),
            user=UserTurn(text="<b>A romance</b>, please."),
        ),
    )
    return DialogueResult(
        dialogue_id="d1",
        system="macrs",
        sample_id="s1",
        target_id="m2",
        status="failure",
        max_turns=5,
        opening=UserTurn(text="An action film about virtual reality and martial arts."),
        exchanges=exchanges,
    )


def test_export_lists_failed_checks_by_turn_and_side(catalog: Catalog) -> None:
    doc = export_dialogue(
        _result(),
        run_index=0,
        label="macrs",
        bucket=None,
        calls=[],
        catalog=catalog,
        profile=("genre: action", "virtual reality", "martial arts", "actor: Keanu Reeves"),
    )
    assert doc["checks"] == [
        {"turn": 0, "side": "user", "checks": ["profile_dump"]},
        {"turn": 1, "side": "system", "checks": ["refusal"]},
        {"turn": 1, "side": "user", "checks": ["echo", "refusal"]},
        {"turn": 2, "side": "user", "checks": ["off_profile"]},
    ]


def test_without_catalog_or_profile_only_text_checks(catalog: Catalog) -> None:
    doc = export_dialogue(_result(), run_index=0, label="m", bucket=None, calls=[], catalog=None)
    assert [c["checks"] for c in doc["checks"]] == [["refusal"], ["echo", "refusal"]]


def test_transcript_shows_badges_as_text_with_a_title() -> None:
    js = (STATIC / "transcript.js").read_text(encoding="utf-8")
    assert 'el("span", {class: "badge check", title: checkTitle(d, name)}' in js
    # A run of another domain names its own words (its header's check_titles) first.
    assert "return own[name] || CHECK_TITLES[name] || String(name);" in js
    assert "innerHTML" not in js  # every text goes through createTextNode
    assert ".badge.check" in (STATIC / "viewer.css").read_text(encoding="utf-8")
