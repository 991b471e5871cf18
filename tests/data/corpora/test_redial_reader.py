"""ReDial's distributed form, read from a hand-written hostile file (no real ReDial rows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macrs_sim.data.corpora import CorpusStats, Recommendation, read_corpus
from macrs_sim.errors import DataError


def _message(sender: int, text: str, offset: int) -> dict[str, object]:
    return {"timeOffset": offset, "text": text, "senderWorkerId": sender, "messageId": offset}


CONVERSATION = {
    "movieMentions": {"135": "Heat (1995)", "137": "Toy Story  (1995)"},
    "messages": [
        _message(10, "Hi! I want a crime thriller from the 90s with Al Pacino.", 0),
        _message(10, "", 1),  # an empty message: no turn
        _message(20, "Have you seen @137 ? Or @999 ?", 2),  # 999: not in movieMentions
        _message(10, "No, not for kids. Something with Pacino?", 3),
        _message(20, "Then @135 is the one.", 4),
        _message(10, "Perfect, I love @135 already!", 5),
    ],
    "conversationId": "c1",
    "initiatorWorkerId": 10,
    "respondentWorkerId": 20,
    "initiatorQuestions": {
        "137": {"suggested": 1, "seen": 0, "liked": 0},
        "135": {"suggested": 1, "seen": 0, "liked": 1},
    },
    "respondentQuestions": {},
}
SECOND = {
    "movieMentions": {"80": "Alien (1979)"},
    "messages": [
        _message(21, "Hello, what are you in the mood for?", 0),
        _message(11, "Something scary in space.", 1),
        _message(11, "Any ideas??", 2),  # the same speaker again: one turn
        _message(21, "@80 is a classic.", 3),
        _message(11, "Seen it, thanks anyway.", 4),
    ],
    "conversationId": "c2",
    "initiatorWorkerId": 11,
    "respondentWorkerId": 21,
    "initiatorQuestions": [],  # empty: the respondent's answers are used
    "respondentQuestions": {"80": {"suggested": 1, "seen": 1, "liked": 2}},
}


def hostile_file(path: Path) -> Path:
    lines = [
        json.dumps(CONVERSATION).encode(),
        b'\xff\xfe{"messages": [], "initiatorWorkerId": 1}',  # not UTF-8
        json.dumps(SECOND).encode(),
        json.dumps(CONVERSATION).encode()[:120],  # truncated last line, no newline
    ]
    path.write_bytes(b"\n".join(lines))
    return path


def test_the_hostile_file_keeps_its_two_good_conversations(tmp_path: Path) -> None:
    stats = CorpusStats()
    read = list(read_corpus(hostile_file(tmp_path / "train_data.jsonl"), stats))
    assert [d.dialogue_id for d in read] == ["c1", "c2"]
    assert stats.skipped == {"not UTF-8": 1, "not JSON (a truncated line?)": 1}
    assert stats.first_line == {"not UTF-8": 2, "not JSON (a truncated line?)": 4}
    assert stats.unknown_mentions == 1
    assert stats.form == "ReDial"


def test_turns_merge_a_speakers_messages_and_markers_become_titles(tmp_path: Path) -> None:
    first, second = read_corpus(hostile_file(tmp_path / "t.jsonl"))
    assert [(t.speaker, t.text) for t in first.turns] == [
        ("seeker", "Hi! I want a crime thriller from the 90s with Al Pacino."),
        ("recommender", "Have you seen Toy Story ? Or @999 ?"),
        ("seeker", "No, not for kids. Something with Pacino?"),
        ("recommender", "Then Heat is the one."),
        ("seeker", "Perfect, I love Heat already!"),
    ]
    assert first.turns[1].titles == ("Toy Story (1995)", "")
    assert [t.text for t in second.seeker_turns] == [
        "Something scary in space. Any ideas??",
        "Seen it, thanks anyway.",
    ]


def test_answers_come_from_the_initiators_questionnaire_else_the_respondents(
    tmp_path: Path,
) -> None:
    first, second = read_corpus(hostile_file(tmp_path / "t.jsonl"))
    assert first.recommendations == (
        Recommendation("Toy Story (1995)", 1, "rejected"),
        Recommendation("Heat (1995)", 3, "accepted"),  # the recommender's turn, not the seeker's
    )
    assert first.sought == "Heat (1995)"
    assert second.recommendations == (Recommendation("Alien (1979)", 2, "unanswered"),)
    assert second.sought is None


def test_a_file_with_nothing_readable_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"messages": "no"\n\xff\n')
    with pytest.raises(
        DataError, match=r"no dialogue could be read \(not JSON .*line 1\); not UTF-8 \(line 2\)"
    ):
        list(read_corpus(bad))
    with pytest.raises(DataError, match="cannot read the corpus"):
        list(read_corpus(tmp_path / "absent.jsonl"))
