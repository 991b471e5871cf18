"""Metrics against values worked out by hand (MACRS paper §4.3, eq. 7)."""

from __future__ import annotations

import math

import pytest

from macrs_sim.analysis.metrics.outcomes import (
    SystemMetrics,
    compute_metrics,
    is_hit,
    metrics_frame,
)
from macrs_sim.protocol import DialogueResult, DialogueStatus, ItemRef, UserTurn

TARGET = "t"


def _final(target_at: int | None, length: int = 10) -> tuple[ItemRef, ...]:
    """A final list with the target at 1-based position `target_at` (None: absent)."""
    ids = [TARGET if i == target_at else f"x{i}" for i in range(1, length + 1)]
    return tuple(ItemRef(title=i, item_id=i) for i in ids)


def _dlg(
    system: str,
    status: DialogueStatus,
    success_turn: int | None = None,
    target_at: int | None = None,
    max_turns: int = 5,
) -> DialogueResult:
    return DialogueResult(
        dialogue_id=f"{system}-{status}-{success_turn}-{target_at}",
        system=system,
        sample_id="s",
        target_id=TARGET,
        status=status,
        max_turns=max_turns,
        success_turn=success_turn,
        opening=UserTurn(text="hi"),
        final_list=_final(target_at),
    )


# Interleaved so the output order must follow each system's first appearance.
RESULTS = [
    _dlg("macrs", "success", success_turn=1, target_at=None),  # a hit even without the target
    _dlg("chatgpt", "failure", target_at=5),
    _dlg("macrs", "success", success_turn=3, target_at=2),
    _dlg("broken", "error"),
    _dlg("macrs", "failure", target_at=3),
    _dlg("chatgpt", "success", success_turn=2),
    _dlg("macrs", "failure", target_at=7),
    _dlg("macrs", "failure", target_at=None),
    _dlg("macrs", "error", target_at=1),  # an error is a failure, never a hit, target or not
    _dlg("chatgpt", "failure", target_at=6),
    _dlg("chatgpt", "failure", target_at=None),
    _dlg("broken", "error"),
]


def test_order_follows_first_appearance() -> None:
    assert [m.system for m in compute_metrics(RESULTS)] == ["macrs", "chatgpt", "broken"]


def test_macrs_by_hand_counts_every_dialogue() -> None:
    m = compute_metrics(RESULTS)[0]
    # 6 dialogues: 2 successes, 3 failures, 1 error; the paper divides by all N = 6.
    assert (m.n, m.n_errors, m.completed_only) == (6, 1, False)
    assert m.success_rate == pytest.approx(2 / 6)
    # Turns 1 and 3; the 3 failures and the error count max_turns + 1 = 6: (1+3+6*4)/6 = 28/6
    assert m.avg_turns == pytest.approx(28 / 6)
    # Hit@5: 2 successes + the failure with the target at 3 -> 3/6; Hit@10 adds position 7.
    # The error's final list holds the target at 1, yet an error is never a hit.
    assert m.hit_at == pytest.approx({5: 3 / 6, 10: 4 / 6})


def test_macrs_completed_only_leaves_the_error_out() -> None:
    m = compute_metrics(RESULTS, completed_only=True)[0]
    assert (m.n, m.n_errors, m.completed_only) == (5, 1, True)
    assert m.success_rate == pytest.approx(2 / 5)  # 0.4
    assert m.avg_turns == pytest.approx((1 + 3 + 6 * 3) / 5)  # 4.4
    assert m.hit_at == pytest.approx({5: 0.6, 10: 0.8})


def test_chatgpt_by_hand() -> None:
    for completed_only in (False, True):  # no error: both views agree
        m = compute_metrics(RESULTS, completed_only=completed_only)[1]
        assert (m.n, m.n_errors) == (4, 0)
        assert m.success_rate == pytest.approx(1 / 4)  # 0.25
        assert m.avg_turns == pytest.approx((2 + 6 + 6 + 6) / 4)  # 5.0
        # Position 5 is inside top 5 (boundary): Hit@5 = (1 + 1)/4; Hit@10 adds 6: (1 + 2)/4.
        assert m.hit_at == pytest.approx({5: 0.5, 10: 0.75})


def test_only_errors_are_all_failures() -> None:
    m = compute_metrics(RESULTS)[2]
    assert (m.system, m.n, m.n_errors) == ("broken", 2, 2)
    assert (m.success_rate, m.avg_turns) == (0.0, 6.0)
    assert m.hit_at == {5: 0.0, 10: 0.0}


def test_only_errors_completed_only_gives_nan_rates() -> None:
    m = compute_metrics(RESULTS, completed_only=True)[2]
    assert (m.system, m.n, m.n_errors) == ("broken", 0, 2)
    assert math.isnan(m.success_rate) and math.isnan(m.avg_turns)
    assert all(math.isnan(v) for v in m.hit_at.values())
    assert list(m.hit_at) == [5, 10]


def _with_list(ids: list[str]) -> DialogueResult:
    return _dlg("a", "failure").model_copy(
        update={"final_list": tuple(ItemRef(title=i, item_id=i) for i in ids)}
    )


def test_hit_at_k_reads_the_final_list_as_given() -> None:
    # Duplicates take their places: the target is 4th, so not within the first 3.
    dup = _with_list(["x1", "x1", "x1", TARGET, "x2"])
    assert [is_hit(dup, k) for k in (3, 4, 5)] == [False, True, True]
    # A list shorter than K is read as far as it goes.
    short = _with_list(["x1", TARGET])
    assert [is_hit(short, k) for k in (1, 2, 10)] == [False, True, True]
    assert not is_hit(_with_list(["x1"]), 10) and not is_hit(_with_list([]), 10)
    (m,) = compute_metrics([dup, short, _with_list(["x1"])], ks=(1, 3, 10))
    assert m.hit_at == pytest.approx({1: 0.0, 3: 1 / 3, 10: 2 / 3})


def test_custom_ks_and_max_turns() -> None:
    results = [
        _dlg("a", "failure", target_at=1, max_turns=3),  # counts 4 turns
        _dlg("a", "failure", target_at=2, max_turns=3),
        _dlg("a", "success", success_turn=2, max_turns=3),
    ]
    (m,) = compute_metrics(results, ks=(1, 3))
    assert m.avg_turns == pytest.approx((4 + 4 + 2) / 3)
    assert m.hit_at == pytest.approx({1: 2 / 3, 3: 3 / 3})
    assert list(m.hit_at) == [1, 3]


def test_no_results() -> None:
    assert compute_metrics([]) == []


def test_metrics_frame() -> None:
    frame = metrics_frame(compute_metrics(RESULTS))
    assert list(frame.columns) == [
        "system", "dialogues", "errors", "success_rate", "avg_turns", "hit@5", "hit@10",
    ]  # fmt: skip
    assert frame["system"].tolist() == ["macrs", "chatgpt", "broken"]
    assert frame["dialogues"].tolist() == [6, 4, 2]
    assert frame["errors"].tolist() == [1, 0, 2]
    assert frame["hit@10"].tolist() == pytest.approx([4 / 6, 0.75, 0.0])
    completed = metrics_frame(compute_metrics(RESULTS, completed_only=True))
    assert completed["dialogues"].tolist() == [5, 4, 0]
    assert completed["errors"].tolist() == [1, 0, 2]
    assert completed["hit@10"].iloc[:2].tolist() == pytest.approx([0.8, 0.75])
    assert math.isnan(completed["success_rate"].iloc[2])


def test_metrics_frame_follows_ks() -> None:
    m = SystemMetrics("a", 1, 0, 1.0, 1.0, {1: 1.0, 20: 1.0})
    assert list(metrics_frame([m]).columns)[-2:] == ["hit@1", "hit@20"]
