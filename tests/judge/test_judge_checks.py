"""The judge check: a judge that always answers the same is named, one that compares is not."""

from __future__ import annotations

from macrs_sim.judge.checks import judge_warning
from macrs_sim.judge.schemas import Choice, JudgeRecord, JudgeVerdict


def _verdict(choice: Choice) -> JudgeVerdict:
    return JudgeVerdict(
        recommendation_accuracy=choice,
        information_gain=choice,
        conciseness=choice,
        engagement=choice,
        winner=choice,
    )


def _record(turn: int, ab: Choice | None, ba: Choice | None) -> JudgeRecord:
    return JudgeRecord(
        dialogue_id="d1",
        system="macrs",
        sample_id="s1",
        turn=turn,
        act="ask",
        suggestion="ask about the era",
        with_suggestion="Which decade?",
        verdict_ab=_verdict(ab) if ab else None,
        verdict_ba=_verdict(ba) if ba else None,
        error=None if ab and ba else "no reply",
    )


def test_always_a_is_named() -> None:
    records = [_record(t, "A", "A") for t in range(1, 6)]
    assert judge_warning(records) == (
        'warning: the judge answered "A" in 10 of 10 verdicts: with each pair shown in both '
        "orders, a judge that compares gives A and B alike; these shares measure the judge, "
        "not the suggestions"
    )


def test_nine_in_ten_is_the_line() -> None:
    nine = [_record(t, "tie", "tie") for t in range(1, 5)] + [_record(5, "tie", "A")]
    assert judge_warning(nine) is not None and '"tie" in 9 of 10' in (judge_warning(nine) or "")
    eight = [_record(t, "tie", "tie") for t in range(1, 5)] + [_record(5, "A", "B")]
    assert judge_warning(eight) is None


def test_a_judge_that_compares_and_too_few_verdicts() -> None:
    # The with-suggestion response wins every time: A in one order, B in the other.
    assert judge_warning([_record(t, "A", "B") for t in range(1, 6)]) is None
    assert judge_warning([_record(1, "A", "A")]) is None  # 2 verdicts: under MIN_VERDICTS
    assert judge_warning([_record(1, None, None)] * 5) is None  # errors are no verdicts
