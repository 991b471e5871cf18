"""The user-side measures, worked out by hand on hand-written dialogues of both corpus forms
and of a run (the demo catalog's Heat, m135, and Toy Story, m137)."""

from __future__ import annotations

import json
from pathlib import Path

from macrs_sim.analysis.realism.collect import resolver
from macrs_sim.analysis.realism.measures import attributes_named, measure
from macrs_sim.analysis.realism.side import from_corpus, from_result
from macrs_sim.analysis.realism.titles import TitleIndex
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.corpora import read_corpus
from macrs_sim.protocol import DialogueResult, Exchange, ItemRef, SystemTurn, UserTurn

CATALOG = Catalog.demo()
TITLES = TitleIndex(CATALOG)
REDIAL = {
    "movieMentions": {"135": "Heat (1995)", "137": "Toy Story (1995)"},
    "messages": [
        {"text": "Hi! I want a crime thriller from the 90s with Al Pacino.", "senderWorkerId": 10},
        {"text": "Have you seen @137 ?", "senderWorkerId": 20},
        {"text": "No, not for kids. Something with Pacino?", "senderWorkerId": 10},
        {"text": "Then @135 is the one.", "senderWorkerId": 20},
        {"text": "Perfect, I love @135 already!", "senderWorkerId": 10},
    ],
    "conversationId": "c1",
    "initiatorWorkerId": 10,
    "initiatorQuestions": {
        "137": {"suggested": 1, "seen": 0, "liked": 0},
        "135": {"suggested": 1, "seen": 0, "liked": 1},
    },
}
OWN = {
    "id": "o1",
    "turns": [
        {"speaker": "seeker", "text": "I'd like a funny animated film about toys."},
        {"speaker": "recommender", "text": "Toy Story?", "titles": ["Toy Story (1995)"]},
        {"speaker": "seeker", "text": "Yes, that's it!"},
    ],
    "recommendations": [{"title": "Toy Story (1995)", "turn": 1, "answer": "accepted"}],
}


def _read(tmp_path: Path, row: dict[str, object]):  # type: ignore[no-untyped-def]
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    (dialogue,) = read_corpus(path)
    return measure(from_corpus(dialogue, resolver(CATALOG)), TITLES)


def test_a_redial_seeker_measured_by_hand(tmp_path: Path) -> None:
    m = _read(tmp_path, REDIAL)
    # "hi i want a crime thriller from the 90s with al pacino" = 12 words; the marker is
    # "Heat" without its year: "perfect i love heat already" = 5
    assert m.words == (12, 7, 5)
    # turn 1: Crime, Thriller, the 1990s, Al Pacino; turn 2: Pacino (a surname alone)
    assert m.attributes == (4, 1, 0)
    assert m.titles == (False, False, True)  # the third carries ReDial's marker
    assert m.questions == (0, 1, 0)
    assert m.answers == ("rejected", "accepted")
    # Heat was suggested in turn 3 (the recommender's); seeker turns before it: 2
    assert m.first_accept == 3


def test_a_turns_form_seeker_measured_by_hand(tmp_path: Path) -> None:
    m = _read(tmp_path, OWN)
    assert m.words == (8, 3)
    assert m.attributes == (2, 0)  # "funny" (Comedy) and "animated" (Animation)
    assert m.titles == (False, False)
    assert m.answers == ("accepted",)
    assert m.first_accept == 2


def _exchange(turn: int, item: str, title: str, text: str, accepted: bool) -> Exchange:
    system = SystemTurn(
        act="recommend", text=f"Try {title}.", items=(ItemRef(title=title, item_id=item),)
    )
    return Exchange(turn=turn, system=system, user=UserTurn(text=text, accepted=accepted))


def test_a_simulated_user_measured_the_same_way() -> None:
    result = DialogueResult(
        dialogue_id="d1", system="s", sample_id="u1", target_id="m135", status="success",
        max_turns=5, success_turn=2, opening=UserTurn(text="I want a heist film with Al Pacino."),
        exchanges=(
            _exchange(1, "m137", "Toy Story", "Not that one, something darker?", False),
            _exchange(2, "m135", "Heat", "Yes, Heat is it!", True),
        ),
    )  # fmt: skip
    m = measure(from_result(result, CATALOG["m135"]), TITLES)
    assert m.words == (8, 5, 4)
    assert m.attributes == (2, 0, 0)  # "heist" (Crime) and Al Pacino
    assert m.titles == (False, False, True)  # "Heat" capitalised inside a sentence
    assert m.questions == (0, 1, 0)
    assert m.answers == ("rejected", "accepted")
    assert m.first_accept == 3


def test_one_word_titles_need_a_capital_inside_a_sentence() -> None:
    assert not TITLES.names_title("Heat is what I want.")
    assert not TITLES.names_title("the heat of summer")
    assert TITLES.names_title("I loved Kill Bill: Volume 1 a lot")
    assert TITLES.names_title("something like toy story please")


def test_attributes_count_each_value_once() -> None:
    heat = CATALOG["m135"]
    assert attributes_named("A crime thriller, crime again, from 1995, Michael Mann's", heat) == 4
    assert attributes_named("a detective story set in Los Angeles", heat) == 2
