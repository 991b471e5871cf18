"""Behaviour checks (issue 26) on hand-written dialogues, against counts worked out by hand.

Target (tests/conftest.py): m2 "The Matrix" (1999, Action/Sci-Fi); the sample here gives it a
four-feature profile so that a profile dump can be told from one or two features.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.analysis.metrics import behaviour_text as bt
from macrs_sim.analysis.metrics.behaviour import simulator_ngrams
from macrs_sim.analysis.metrics.validity import validity_stats
from macrs_sim.analysis.report.summary import behaviour_lines
from macrs_sim.analysis.report.validity import (
    behaviour_warnings,
    render_validity_markdown,
    validity_frame,
)
from macrs_sim.data.attributes import ItemAttributes
from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import DialogueResult, Exchange, Sample, SystemTurn, UserTurn
from macrs_sim.store import RunStore

PROFILE = ("genre: action", "virtual reality", "martial arts", "actor: Keanu Reeves")
MATRIX = Sample(sample_id="s1", user_id="u1", history=(), target_id="m2", target_profile=PROFILE)
SORRY = "I'm sorry, but I can't assist with that."


def _dlg(system: str, opening: str, turns: list[tuple[str, str, str]]) -> DialogueResult:
    exchanges = tuple(
        Exchange(turn=i, system=SystemTurn(act=act, text=said), user=UserTurn(text=reply))
        for i, (act, said, reply) in enumerate(turns, start=1)
    )
    return DialogueResult(
        dialogue_id=f"d-{system}",
        system=system,
        sample_id="s1",
        target_id="m2",
        status="failure",
        max_turns=5,
        opening=UserTurn(text=opening),
        exchanges=exchanges,
    )


ECHOER = _dlg(
    "macrs",
    "I want an action film about virtual reality with martial arts and Keanu Reeves.",
    [
        ("ask", SORRY, SORRY),
        ("ask", SORRY, SORRY),
        ("ask", "What genre do you like?", "A romantic comedy, please."),
    ],
)
FINE = _dlg(
    "single",
    "Hi! I want a smart science fiction film.",
    [
        ("chat", "Would you like something from the nineties?", "Yes, I'd like that."),
        ("ask", "Do you prefer newer films?", "No."),
        ("chat", "Here are some films you might like: Blade Runner, Gattaca, and", "No."),
        ("chat", "", "That is not the movie you are looking for: decline it and hint."),
    ],
)


@pytest.fixture
def stats(catalog: Catalog) -> dict[str, dict[str, tuple[int, int]]]:
    rows = validity_stats([ECHOER, FINE], {"s1": MATRIX}, catalog)
    return {s.system: s.behaviour for s in rows}


def test_counts_worked_by_hand(stats: dict[str, dict[str, tuple[int, int]]]) -> None:
    # macrs: 4 user turns (opening + 3), echo/off-profile over 3 replies, repeat over 3
    # replies; 3 system turns, repeat over turns 2-3. Turn 2's system also echoes the user's
    # turn-1 apology (the warning names its worse failure: refusal, 2 of 3).
    assert stats["macrs"] == {
        "user_echo": (2, 3), "user_refusal": (2, 4), "user_repeat": (1, 3), "user_empty": (0, 4),
        "user_truncated": (0, 4), "user_instruction_echo": (0, 4), "user_profile_dump": (1, 4),
        "user_off_profile": (1, 3), "system_echo": (1, 3), "system_refusal": (2, 3),
        "system_repeat": (1, 2), "system_empty": (0, 3), "system_truncated": (0, 3),
    }  # fmt: skip
    # single: "Yes, I'd like that" is no echo, "No." twice no repeat, the empty system turn
    # and the cut one count, the copied instruction counts.
    assert stats["single"] == {
        "user_echo": (0, 4), "user_refusal": (0, 5), "user_repeat": (0, 4), "user_empty": (0, 5),
        "user_truncated": (0, 5), "user_instruction_echo": (1, 5), "user_profile_dump": (0, 5),
        "user_off_profile": (0, 4), "system_echo": (0, 4), "system_refusal": (0, 4),
        "system_repeat": (0, 3), "system_empty": (1, 4), "system_truncated": (1, 4),
    }  # fmt: skip
    assert stats["all"]["user_echo"] == (2, 7)
    assert stats["all"]["system_refusal"] == (2, 7)


def test_csv_columns_and_markdown(catalog: Catalog) -> None:
    rows = validity_stats([ECHOER, FINE], {"s1": MATRIX}, catalog)
    frame = validity_frame(rows).set_index("system")
    assert frame.loc["macrs", "user_echo_share"] == pytest.approx(2 / 3)
    assert frame.loc["macrs", "user_echo_turns"] == 3
    assert frame.loc["macrs", "system_refusal_share"] == pytest.approx(2 / 3)
    assert frame.loc["macrs", "system_repeat_share"] == 0.5
    assert frame.loc["single", "user_instruction_echo_share"] == 0.2
    assert frame.loc["macrs", "user_profile_dump_share"] == 0.25
    assert frame.loc["all", "user_refusal_share"] == pytest.approx(2 / 9)
    for col in ("system_echo_share", "user_repeat_share", "user_empty_share"):
        assert frame[col].dtype == "float64"
    text = render_validity_markdown(rows)
    macrs = "| macrs | 67% (2/3) | 50% (2/4) | 33% (1/3) | 0% (0/4) | 0% (0/4) | 0% (0/4) |"
    assert macrs + " 25% (1/4) | 33% (1/3) |" in text
    assert "| single | 0% (0/4) | 0% (0/4) | 0% (0/3) | 25% (1/4) | 25% (1/4) |" in text
    assert "*Profile dump*: a user turn stating at least 3 features" in text.splitlines()[-1]


def test_warnings_name_the_side_and_share(catalog: Catalog) -> None:
    rows = validity_stats([ECHOER, FINE], {"s1": MATRIX}, catalog)
    assert behaviour_warnings(rows) == [
        "warning: the simulated user copied the system's text in 2 of 7 turns (29%): the model "
        "cannot play a user; results measure nothing (see README 'When the simulated user is "
        "not a user')",
        "warning: systems failed to reply as recommenders: macrs refused to answer in 2 of 3 "
        "turns (the model cannot play the system; see README 'When the simulated user is not "
        "a user')",
    ]
    assert behaviour_warnings(validity_stats([FINE], {"s1": MATRIX}, catalog)) == []
    assert "**warning: the simulated user" in render_validity_markdown(rows)


def test_exactly_one_in_five_is_no_warning(catalog: Catalog) -> None:
    """20 % is the line: more draws the warning, exactly 1 echo in 5 replies does not."""
    turns = [("ask", f"Question number {w} for you?", f"My answer is {w}, thanks.") for w in "abcd"]
    echo = ("ask", "Tell me what you like?", "Tell me what you like?")
    one = _dlg("x", "Hi.", [echo, *turns])
    assert behaviour_warnings(validity_stats([one], {"s1": MATRIX}, catalog)) == []
    two = validity_stats([_dlg("x", "Hi.", [echo, *turns[:3]])], {"s1": MATRIX}, catalog)
    assert "in 1 of 4 turns (25%)" in behaviour_warnings(two)[0]


@pytest.mark.parametrize(
    ("text", "other", "expected"),
    [
        ("Yes, I'd like that", "Would you like that?", False),
        ("No.", "No.", False),  # under MIN_WORDS: too short to say anything about a model
        ("I want a drama.", "I want a drama!", True),  # 4 words, the minimum
        ("A drama please.", "A drama please.", False),  # 3 words
        ("Sure! I want a drama set in India.", "Hi! I want a drama set in India.", True),
        ("I'd like a drama set in India.", "How about a drama set in India?", False),
    ],
)  # fmt: skip
def test_similar(text: str, other: str, expected: bool) -> None:
    assert bt.similar(text, other) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (SORRY, True),
        ("I’m sorry, but I can’t help with that request.", True),
        ("As an AI language model, I don't have personal preferences.", True),
        ("I cannot assist with that.", True),
        ("I'm sorry, I can't remember the title.", False),
        ("Sorry, but that's not the one I'm looking for.", False),
        ("I can't stand horror movies.", False),
    ],
)
def test_refusal(text: str, expected: bool) -> None:
    assert bt.is_refusal(text) is expected


def test_instruction_echo_needs_six_words_of_the_prompt() -> None:
    grams = simulator_ngrams()
    assert bt.copies_instructions("Oh, and hint at what you want instead.", grams)  # 6 words
    assert not bt.copies_instructions("Oh, at what you want instead.", grams)  # 5
    assert not bt.copies_instructions("No, that is not the movie I am looking for.", grams)


def test_profile_dump_threshold() -> None:
    six = ("a1", "b2", "c3", "d4", "e5", "f6")
    assert not bt.is_profile_dump("a1 b2 c3", six)  # 3 of 6: half is not more than half
    assert bt.is_profile_dump("a1 b2 c3 d4", six)  # 4 of 6
    assert bt.is_profile_dump("a1 b2 c3", six[:5])  # 3 of 5
    assert not bt.is_profile_dump("a1 b2 c3", (*six, "g7"))  # 3 of 7: under half
    assert not bt.is_profile_dump("a1 b2", ("a1", "b2"))  # all, but only 2
    assert bt.features_stated("Directed by Chuck Russell", ("director: Chuck Russell",)) == 1


def test_off_profile_and_truncated() -> None:
    matrix = ItemAttributes(("Action", "Sci-Fi"), 1999, ())
    assert bt.is_off_profile("What genre?", "A romance.", matrix)
    assert not bt.is_off_profile("What genre?", "Not romance, sci-fi!", matrix)
    assert not bt.is_off_profile("Have you seen Psycho?", "I love horror.", matrix)
    assert bt.is_off_profile("Any era you like?", "Something from the 1970s.", matrix)
    assert not bt.is_off_profile("Any era you like?", "The late nineties, 1999 or so.", matrix)
    assert bt.is_truncated("I am looking for a drama set in India about a young")
    assert not bt.is_truncated("comedy please")  # under 8 words
    assert not bt.is_truncated("")


def test_end_of_run_lines_from_the_store(tmp_path: Path) -> None:
    """What `run` and `report` print under the table: read from the store's records."""
    with RunStore.create(tmp_path / "store.sqlite") as store:
        store.write_dialogue(ECHOER, [])
        store.write_dialogue(FINE, [])
        lines = behaviour_lines(store)
    assert lines[0].startswith("warning: the simulated user copied the system's text in 2 of 7")
    assert lines[1].startswith("warning: systems failed to reply as recommenders: macrs refused")
    with RunStore.create(tmp_path / "fine.sqlite") as store:
        store.write_dialogue(FINE, [])
        assert behaviour_lines(store) == []


def test_report_counts_give_the_lines_a_second_pass_gives(tmp_path: Path, catalog: Catalog) -> None:
    """`run` and `report` print the warnings from the counts the report worked out (with the
    target's profile): echo and refusal do not depend on it, so they are the lines a second
    pass over the store (without profiles) would print."""
    *systems, overall = validity_stats([ECHOER, FINE], {"s1": MATRIX}, catalog)
    known = ({s.system: s.behaviour for s in systems}, overall.behaviour)
    assert overall.behaviour["user_profile_dump"] == (1, 9)  # the profile counted (4 + 5 turns)
    with RunStore.create(tmp_path / "store.sqlite") as store:
        store.write_dialogue(ECHOER, [])
        store.write_dialogue(FINE, [])
        assert behaviour_lines(store, known) == behaviour_lines(store)
        assert len(behaviour_lines(store, known)) == 2
