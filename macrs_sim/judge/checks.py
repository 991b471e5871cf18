"""Is the judge judging? A judge that gives the same overall verdict nearly every time
(always "A": it follows the position; always "tie": it compares nothing) measures nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from macrs_sim.judge.schemas import JudgeRecord

SAME_SHARE = 0.9  # at least this share of raw verdicts alike draws the warning
MIN_VERDICTS = 4  # fewer verdicts say nothing about the judge


def judge_warning(records: Sequence[JudgeRecord]) -> str | None:
    """ONE line when the judge's raw overall choice (A, B or tie, both orders together) is the
    same in at least SAME_SHARE of at least MIN_VERDICTS verdicts."""
    choices = Counter(
        v.winner for r in records for v in (r.verdict_ab, r.verdict_ba) if v is not None
    )
    total = sum(choices.values())
    if total < MIN_VERDICTS:
        return None
    choice, count = choices.most_common(1)[0]
    if count < SAME_SHARE * total:
        return None
    return (
        f'warning: the judge answered "{choice}" in {count} of {total} verdicts: with each pair '
        "shown in both orders, a judge that compares gives A and B alike; these shares "
        "measure the judge, not the suggestions"
    )
