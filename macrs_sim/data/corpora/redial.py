"""ReDial's distributed form: one conversation a line (`messages` with `text` and
`senderWorkerId`; `movieMentions` id -> "Title (Year)"; `initiatorQuestions` /
`respondentQuestions` id -> `suggested`, `seen`, `liked`; `@123` marks a mention).

The seeker is the initiator. A marker is replaced by its title without the year (an unknown
id stays `@id`). A speaker's consecutive messages are one turn; an empty
message is no turn. The seeker's answer to a suggested film is the initiator's
questionnaire (`liked` 1 accepted, 0 rejected, 2 or missing unanswered), the respondent's
when the initiator's is empty, as ReDial's own loaders do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from macrs_sim.data.corpora.records import (
    Answer,
    CorpusDialogue,
    CorpusTurn,
    Recommendation,
    Speaker,
)
from macrs_sim.data.grounding.normalise import split_year

_MENTION = re.compile(r"@(\d+)")
_LIKED: dict[Any, Answer] = {1: "accepted", 0: "rejected", 2: "unanswered"}


def is_redial(row: Mapping[str, Any]) -> bool:
    return "messages" in row and "initiatorWorkerId" in row


def _mentions(row: Mapping[str, Any]) -> dict[str, str]:
    raw = row.get("movieMentions") or {}
    if isinstance(raw, list):  # some re-distributions list {"movieId", "movieName"}
        raw = {str(m.get("movieId")): m.get("movieName") for m in raw if isinstance(m, dict)}
    if not isinstance(raw, dict):
        raise ValueError("movieMentions is not a mapping")
    return {str(k): " ".join(str(v).split()) for k, v in raw.items() if isinstance(v, str)}


def _turn(speaker: Speaker, texts: list[str], titles: Mapping[str, str]) -> CorpusTurn:
    text = " ".join(texts)
    ids = _MENTION.findall(text)
    # the title as said, without its year: the seeker wrote no year (nor its words)
    shown = _MENTION.sub(lambda m: split_year(titles.get(m.group(1), ""))[0] or m.group(0), text)
    return CorpusTurn(speaker, " ".join(shown.split()), tuple(titles.get(i, "") for i in ids))


def _turns(
    row: Mapping[str, Any], titles: Mapping[str, str]
) -> tuple[list[CorpusTurn], list[list[str]]]:
    """The merged turns and, for each, the mention ids it holds."""
    seeker = row.get("initiatorWorkerId")
    runs: list[tuple[Speaker, list[str]]] = []
    for message in row["messages"]:
        if not isinstance(message, dict):
            raise ValueError("a message is not an object")
        text = message.get("text")
        if not isinstance(text, str) or not text.strip():
            continue
        speaker: Speaker = "seeker" if message.get("senderWorkerId") == seeker else "recommender"
        if runs and runs[-1][0] == speaker:
            runs[-1][1].append(text.strip())
        else:
            runs.append((speaker, [text.strip()]))
    turns = [_turn(s, texts, titles) for s, texts in runs]
    return turns, [_MENTION.findall(" ".join(texts)) for _, texts in runs]


def _answers(row: Mapping[str, Any]) -> Mapping[str, Any]:
    for key in ("initiatorQuestions", "respondentQuestions"):
        found = row.get(key)
        if isinstance(found, dict) and found:
            return found
    return {}


def _recommendations(
    row: Mapping[str, Any], turns: list[CorpusTurn], ids: list[list[str]], titles: Mapping[str, str]
) -> list[Recommendation]:
    found: list[Recommendation] = []
    for movie, answer in _answers(row).items():
        if not isinstance(answer, dict) or answer.get("suggested") != 1:
            continue
        named = [i for i, held in enumerate(ids) if str(movie) in held]
        by_recommender = [i for i in named if turns[i].speaker == "recommender"]
        if not named:
            continue  # suggested, says the form, but never named in the conversation
        turn = (by_recommender or named)[0]
        title = titles.get(str(movie), f"@{movie}")
        found.append(Recommendation(title, turn, _LIKED.get(answer.get("liked"), "unanswered")))
    return sorted(found, key=lambda r: r.turn)


def redial_dialogue(row: Mapping[str, Any]) -> CorpusDialogue:
    """One ReDial line's object; ValueError names what is wrong with it."""
    if not isinstance(row.get("messages"), list):
        raise ValueError("messages is not a list")
    titles = _mentions(row)
    turns, ids = _turns(row, titles)
    recs = _recommendations(row, turns, ids, titles)
    return CorpusDialogue(str(row.get("conversationId", "")), tuple(turns), tuple(recs))
