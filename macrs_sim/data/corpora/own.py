"""The project's own corpus form, for any other corpus (OpenDialKG, INSPIRED, a lab's
logs) once converted: one dialogue a JSON object a line,

    {"id": "d1", "target": "Heat (1995)",
     "turns": [{"speaker": "seeker", "text": "Any heist films?"},
               {"speaker": "recommender", "text": "Try Heat.", "titles": ["Heat (1995)"]},
               {"speaker": "seeker", "text": "Perfect, thanks!"}],
     "recommendations": [{"title": "Heat (1995)", "turn": 1, "answer": "accepted"}]}

`speaker` is "seeker" (or "user") or "recommender" (or "system"); `titles` (the items the
turn names) and `target` (what the seeker was after) are optional, as are
`recommendations` (`turn` indexes `turns`; `answer` accepted, rejected or unanswered).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from macrs_sim.data.corpora.records import (
    ANSWERS,
    Answer,
    CorpusDialogue,
    CorpusTurn,
    Recommendation,
    Speaker,
)

_SPEAKERS: dict[str, Speaker] = {
    "seeker": "seeker",
    "user": "seeker",
    "recommender": "recommender",
    "system": "recommender",
}


def is_own(row: Mapping[str, Any]) -> bool:
    return isinstance(row.get("turns"), list)


def _strings(value: Any, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} is not a list of strings")
    return tuple(value)


def _turn(raw: Any) -> CorpusTurn:
    if not isinstance(raw, dict):
        raise ValueError("a turn is not an object")
    speaker = _SPEAKERS.get(str(raw.get("speaker", "")).lower())
    if speaker is None:
        raise ValueError(f"unknown speaker {raw.get('speaker')!r:.40}")
    text = raw.get("text")
    if not isinstance(text, str):
        raise ValueError("a turn's text is not a string")
    return CorpusTurn(speaker, " ".join(text.split()), _strings(raw.get("titles"), "titles"))


def _recommendation(raw: Any, n_turns: int) -> Recommendation:
    if not isinstance(raw, dict) or not isinstance(raw.get("title"), str):
        raise ValueError("a recommendation has no title")
    turn, answer = raw.get("turn"), raw.get("answer", "unanswered")
    if not isinstance(turn, int) or not 0 <= turn < n_turns:
        raise ValueError(f"a recommendation's turn {turn!r:.20} is not a turn of the dialogue")
    if answer not in ANSWERS:
        raise ValueError(f"unknown answer {answer!r:.30}")
    chosen: Answer = answer
    return Recommendation(raw["title"], turn, chosen)


def own_dialogue(row: Mapping[str, Any]) -> CorpusDialogue:
    """One line's object; ValueError names what is wrong with it."""
    turns = tuple(t for t in map(_turn, row["turns"]) if t.text)
    if len(turns) != len(row["turns"]):
        raise ValueError("a turn's text is empty (leave the turn out instead)")
    recs = tuple(_recommendation(r, len(turns)) for r in row.get("recommendations") or ())
    target = row.get("target")
    if target is not None and not isinstance(target, str):
        raise ValueError("target is not a string")
    return CorpusDialogue(str(row.get("id", "")), turns, recs, target or None)
