"""Table 1 (MACRS paper §5) over a hand-made dialogues frame, means worked out by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from scipy import stats

from macrs_sim.analysis.metrics.table1 import (
    METRICS,
    columns,
    format_p,
    render_table1_markdown,
    table1,
)
from macrs_sim.analysis.runs.load import SystemInfo

NAN = math.nan
# max_turns = 5, so a failure counts 6 turns.
# (system, sample, status, turns, hit@5, hit@10); success is 1.0 iff status == "success".
ROWS = [
    ("chatgpt", "s1", "success", 2, 1, 1),
    ("chatgpt", "s2", "failure", 6, 0, 1),
    ("chatgpt", "s3", "failure", 6, 0, 0),
    ("chatgpt", "s4", "success", 3, 1, 1),
    ("chatgpt", "s5", "failure", 6, 0, 0),
    ("macrs", "s1", "success", 1, 1, 1),
    ("macrs", "s2", "success", 4, 1, 1),
    ("macrs", "s3", "error", 6, 0, 0),  # as load.py counts an error: a failure, no hit
    ("macrs", "s4", "success", 2, 1, 1),
    ("macrs", "s5", "failure", 6, 1, 1),  # target in the final top 5
    ("noir", "s5", "success", 3, 1, 1),  # order in the frame does not matter
    ("noir", "s1", "failure", 6, 0, 1),
    ("noir", "s2", "success", 5, 1, 1),
    ("noir", "s3", "success", 2, 1, 1),
    ("noir", "s4", "failure", 6, 0, 0),
]
SYSTEMS = [
    SystemInfo("macrs", "macrs", "full"),
    SystemInfo("chatgpt", "chatgpt", "chatgpt"),
    SystemInfo("noir", "macrs", "w/o IR"),
    SystemInfo("ghost", "llama", ""),  # configured, no dialogue yet
]


def _dialogues() -> pd.DataFrame:
    records = []
    for i, (system, sample, status, turns, h5, h10) in enumerate(ROWS):
        records.append(
            {
                "dialogue_id": f"d{i}",
                "system": system,
                "sample_id": sample,
                "target_id": f"t-{sample}",
                "bucket": None,
                "status": status,
                "success": float(status == "success"),
                "turns": float(turns),
                "hit@5": float(h5),
                "hit@10": float(h10),
            }
        )
    return pd.DataFrame(records)


def _frame(
    paired: bool = True, reference: str | None = "chatgpt", completed_only: bool = False
) -> pd.DataFrame:
    return table1(
        _dialogues(),
        SYSTEMS,
        reference=reference,
        paired=paired,
        n_resamples=500,
        completed_only=completed_only,
    )


def _row(frame: pd.DataFrame, system: str) -> pd.Series:
    return frame.set_index("system").loc[system]


# chatgpt: success 2/5 = 0.4, turns (2+6+6+3+6)/5 = 23/5 = 4.6, hit@5 2/5, hit@10 3/5.
# macrs (s3 is an error, a failure): success 3/5, turns (1+4+6+2+6)/5 = 19/5, hit@5 4/5,
# hit@10 4/5; completed only (s3 left out): success 3/4, turns (1+4+2+6)/4 = 13/4, hits 4/4.
# noir: success 3/5, turns (6+5+2+6+3)/5 = 22/5, hit@5 3/5, hit@10 4/5.
MEANS = {
    "chatgpt": (5, 0, 0.4, 4.6, 0.4, 0.6),
    "macrs": (5, 1, 0.6, 3.8, 0.8, 0.8),
    "noir": (5, 0, 0.6, 4.4, 0.6, 0.8),
}
MEANS_COMPLETED = {**MEANS, "macrs": (4, 1, 0.75, 3.25, 1.0, 1.0)}


def test_columns_order_and_systems_order() -> None:
    frame = _frame()
    assert list(frame.columns) == columns()
    assert list(frame["system"]) == ["macrs", "chatgpt", "noir", "ghost"]
    assert list(frame["variant"]) == ["full", "chatgpt", "w/o IR", "llama"]


@pytest.mark.parametrize("completed_only", [False, True])
@pytest.mark.parametrize("system", list(MEANS))
def test_means_n_and_errors(system: str, completed_only: bool) -> None:
    frame = _frame(completed_only=completed_only)
    assert frame.attrs["completed_only"] is completed_only
    row = _row(frame, system)
    n, errors, *means = (MEANS_COMPLETED if completed_only else MEANS)[system]
    assert (row["n"], row["errors"]) == (n, errors)
    for metric, mean in zip(METRICS, means, strict=True):
        assert row[metric] == pytest.approx(mean, abs=1e-12)
        assert row[f"{metric}_ci_low"] <= row[metric] <= row[f"{metric}_ci_high"]


def test_degenerate_ci_is_the_mean() -> None:
    row = _row(_frame(completed_only=True), "macrs")  # hit@5 is 1 on every completed sample
    assert (row["hit@5_ci_low"], row["hit@5_ci_high"]) == (1.0, 1.0)


def test_system_without_dialogues_is_nan() -> None:
    row = _row(_frame(), "ghost")
    assert (row["n"], row["errors"]) == (0, 0)
    assert all(math.isnan(row[c]) for c in columns()[4:])


def test_reference_row_and_no_reference_have_no_p() -> None:
    assert all(math.isnan(_row(_frame(), "chatgpt")[f"{m}_p"]) for m in METRICS)
    frame = _frame(reference=None)
    assert frame[[f"{m}_p" for m in METRICS]].isna().all().all()


def test_unknown_reference_is_refused() -> None:
    with pytest.raises(ValueError, match="nosuch"):
        _frame(reference="nosuch")


def test_paired_p_values_equal_scipy() -> None:
    row = _row(_frame(paired=True), "macrs")
    # All five samples pair, s3 too: macrs's error there is a failure (6 turns, no hit).
    chatgpt = {"success": [1, 0, 0, 1, 0], "turns": [2, 6, 6, 3, 6], "hit@5": [1, 0, 0, 1, 0]}
    macrs = {"success": [1, 1, 0, 1, 0], "turns": [1, 4, 6, 2, 6], "hit@5": [1, 1, 0, 1, 1]}
    for m in chatgpt:
        assert row[f"{m}_p"] == pytest.approx(stats.ttest_rel(macrs[m], chatgpt[m]).pvalue)
    # hit@10 differences [0, 0, 0, 0, 1]: still a test; noir's are [0, 0, 1, -1, 1] (s1..s5).
    expected = stats.ttest_rel([1, 1, 0, 1, 1], [1, 1, 0, 1, 0]).pvalue
    assert row["hit@10_p"] == pytest.approx(expected)
    noir = _row(_frame(paired=True), "noir")
    assert noir["hit@10_p"] == pytest.approx(
        stats.ttest_rel([1, 1, 1, 0, 1], [1, 1, 0, 1, 0]).pvalue
    )


def test_unpaired_p_values_equal_scipy() -> None:
    row = _row(_frame(paired=False), "macrs")
    turns_chatgpt, turns_macrs = [2, 6, 6, 3, 6], [1, 4, 6, 2, 6]  # macrs's s3 error: 6
    expected = stats.ttest_ind(turns_macrs, turns_chatgpt, equal_var=True).pvalue
    assert row["turns_p"] == pytest.approx(expected)
    succ = stats.ttest_ind([1, 1, 0, 1, 0], [1, 0, 0, 1, 0], equal_var=True).pvalue
    assert row["success_p"] == pytest.approx(succ)


def test_completed_only_pairs_over_completed_samples() -> None:
    row = _row(_frame(paired=True, completed_only=True), "macrs")
    # s3 is left out of macrs's values, so the pairs are s1, s2, s4, s5.
    expected = stats.ttest_rel([1, 4, 2, 6], [2, 6, 3, 6]).pvalue
    assert row["turns_p"] == pytest.approx(expected)


def test_deterministic_for_a_seed() -> None:
    pd.testing.assert_frame_equal(_frame(), _frame())


# --- rendering -----------------------------------------------------------------------


def _hand_frame() -> pd.DataFrame:
    values = {
        "system": ["chatgpt", "macrs", "ghost"],
        "variant": ["chatgpt", "full", "llama"],
        "n": [100, 98, 0],
        "errors": [0, 2, 0],
    }
    cols: dict[str, list[float]] = {}
    # (mean, low, high, p) per metric for chatgpt and macrs; ghost is all NaN.
    specs = {
        "success": [(0.39, 0.3, 0.49, NAN), (0.6123, 0.51, 0.70499, 0.0004)],
        "turns": [(4.24, 4.0, 4.5, NAN), (4.19, 3.9, 4.4, 0.031)],
        "hit@5": [(0.44, 0.34, 0.54, NAN), (0.77, 0.68, 0.85, 0.01)],
        "hit@10": [(0.51, 0.41, 0.61, NAN), (0.8, 0.72, 0.87, 0.2)],
    }
    for m, (ref, other) in specs.items():
        for i, suffix in enumerate(("", "_ci_low", "_ci_high", "_p")):
            cols[m + suffix] = [ref[i], other[i], NAN]
    return pd.DataFrame({**values, **cols})[columns()]


def test_render_rows_exactly() -> None:
    text = render_table1_markdown(_hand_frame(), reference="chatgpt", paired=True, n_resamples=2000)
    lines = text.splitlines()
    assert lines[0] == (
        "| System | Variant | n | Errors | Success rate | Avg turns | Hit@5 | Hit@10 |"
    )
    assert lines[2] == (
        "| chatgpt | chatgpt | 100 | 0 | 0.39 [0.30, 0.49] | 4.24 [4.00, 4.50] "
        "| 0.44 [0.34, 0.54] | 0.51 [0.41, 0.61] |"
    )
    # p 0.0004 and 0.01 give ‡, 0.031 gives †, 0.2 nothing.
    assert lines[3] == (
        "| macrs | full | 98 | 2 | 0.61 [0.51, 0.70]‡ | 4.19 [3.90, 4.40]† "
        "| 0.77 [0.68, 0.85]‡ | 0.80 [0.72, 0.87] |"
    )
    assert lines[4] == "| ghost | llama | 0 | 0 | n/a | n/a | n/a | n/a |"
    note = lines[6]
    assert note.startswith("n counts every dialogue of the system; dialogues that ended in an ")
    assert "error (2 here) count as failures (max_turns + 1 turns, no hit)" in note
    assert "95% percentile bootstrap" in note and "(2000 resamples)" in note
    assert "paired Student's t-test against chatgpt" in note
    assert "‡ p ≤ 0.01" in note and "† p ≤ 0.05" in note
    assert lines[8] == "| System | Success rate p | Avg turns p | Hit@5 p | Hit@10 p |"
    assert lines[10] == "| chatgpt | — | — | — | — |"
    assert lines[11] == "| macrs | <0.001 | 0.031 | 0.010 | 0.200 |"


def test_render_without_reference_has_no_p_table() -> None:
    text = render_table1_markdown(_hand_frame(), reference=None, paired=False)
    assert "No significance tests" in text and "p |" not in text
    assert "resamples" not in text  # the hand frame does not say how many


def test_render_table1_output_uses_its_resamples_and_unpaired_wording() -> None:
    frame = _frame(paired=False)
    text = render_table1_markdown(frame, reference="chatgpt", paired=False)
    assert "(500 resamples)" in text and "unpaired (equal-variance) Student's" in text
    macrs = _row(frame, "macrs")
    low, high = macrs["success_ci_low"], macrs["success_ci_high"]
    assert f"| macrs | full | 5 | 1 | 0.60 [{low:.2f}, {high:.2f}]" in text
    completed = render_table1_markdown(
        _frame(completed_only=True), reference="chatgpt", paired=False
    )
    assert "| macrs | full | 4 | 1 | 0.75 [" in completed
    assert "Completed dialogues only: n leaves out the 1 dialogue(s)" in completed


@pytest.mark.parametrize(
    ("p", "text"), [(NAN, "—"), (0.0309, "0.031"), (0.00099, "<0.001"), (0.001, "0.001")]
)
def test_format_p(p: float, text: str) -> None:
    assert format_p(p) == text
