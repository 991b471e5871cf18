"""Table 2 of the paper (§5.3.3) from stored judgments: one row per system, both countings."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from macrs_sim.judge.schemas import CRITERIA, OUTCOMES, Criterion, JudgeRecord, Outcome

TABLE2_TITLE = "## Strategy-level suggestions (Table 2)"
_COUNTS = ("with_wins", "ties", "without_wins")  # one per OUTCOMES entry, same order
_LABELS = {
    "recommendation_accuracy": "Recommendation accuracy",
    "information_gain": "User information gain",
    "conciseness": "Conciseness",
    "engagement": "Engagement",
}
_HEADER = "Response w/ Suggestions Wins | Tie | Response w/o Suggestions Wins"
RULE_NOTE = (
    "Each pair was judged in both orders (w/ as A, then w/o as A) to cancel position bias. "
    "w/ wins if it wins in both orders, or wins in one and ties in the other; w/o wins in the "
    "symmetric cases; anything else (one win each, or two ties) is a tie. "
    "Each criterion is combined the same way."
)
SINGLE_NOTE = (
    "Single order: each of a pair's two ordered judgments counted on its own (two per pair, "
    "position bias not cancelled). The paper describes one judgment per comparison, so its "
    "shares compare with these."
)
PAPER_NOTE = "The paper reports 45.4% / 33.0% / 21.6% (MACRS, ChatGPT as the judge)."


def _counts(prefix: str, outcomes: Sequence[Outcome | None]) -> dict[str, float | int]:
    row: dict[str, float | int] = {}
    for outcome, name in zip(OUTCOMES, _COUNTS, strict=True):
        count = sum(o == outcome for o in outcomes)
        row[f"{prefix}{name}"] = count
        # A system with no judged pair has no shares; NaN, not 0, so it cannot pass for one.
        row[f"{prefix}{name}_share"] = count / len(outcomes) if outcomes else math.nan
    return row


def _single(judged: Sequence[JudgeRecord], criterion: Criterion | None) -> list[Outcome]:
    return [o for r in judged for o in (r.single_order_outcomes(criterion) or ())]


def _row(system: str, records: Sequence[JudgeRecord]) -> dict[str, object]:
    judged = [r for r in records if r.error is None]
    row: dict[str, object] = {"system": system, "pairs": len(judged)}
    row["errors"] = len(records) - len(judged)
    row |= _counts("", [r.outcome for r in judged])
    single = _single(judged, None)
    row["judgments"] = len(single)
    row |= _counts("single_", single)
    for c in CRITERIA:
        row |= _counts(f"{c}_", [r.criterion_outcome(c) for r in judged])
        row |= _counts(f"{c}_single_", _single(judged, c))
    return row


TABLE_COLUMNS = list(_row("", []))


def judge_table(
    records: Sequence[JudgeRecord], systems: Sequence[str] | None = None
) -> pd.DataFrame:
    """One row per system (the given ones, else in first-seen order); errors are not pairs."""
    names = list(systems) if systems is not None else list(dict.fromkeys(r.system for r in records))
    rows = [_row(n, [r for r in records if r.system == n]) for n in names]
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def _cell(share: float, count: int) -> str:
    return "n/a" if math.isnan(share) else f"{share * 100:.1f}% ({count})"


def _cells(row: pd.Series, prefix: str = "") -> str:
    return " | ".join(
        _cell(float(row[f"{prefix}{n}_share"]), int(row[f"{prefix}{n}"])) for n in _COUNTS
    )


def _criterion_table(rows: Sequence[pd.Series], prefix: str) -> list[str]:
    lines = [f"| System | Criterion | {_HEADER} |", "| --- | --- | ---: | ---: | ---: |"]
    return lines + [
        f"| {r['system']} | {_LABELS[c]} | {_cells(r, f'{c}_{prefix}')} |"
        for r in rows
        for c in CRITERIA
    ]


def render_table2_markdown(frame: pd.DataFrame) -> str:
    """The paper's Table 2 per system, counted with both orders combined and single order,
    then the same per criterion, then how the countings work."""
    if frame.empty:
        return f"{TABLE2_TITLE}\n\nNo pairs were judged.\n"
    rows = [r for _, r in frame.iterrows()]
    lines = [TABLE2_TITLE, "", "Both orders combined (one outcome per pair):", ""]
    lines += [
        f"| System | Pairs | Errors | {_HEADER} |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += [f"| {r['system']} | {r['pairs']} | {r['errors']} | {_cells(r)} |" for r in rows]
    lines += ["", "Single order (each ordered judgment on its own; the paper's counting):", ""]
    lines += [f"| System | Judgments | {_HEADER} |", "| --- | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r['system']} | {r['judgments']} | {_cells(r, 'single_')} |" for r in rows]
    lines += ["", "Per criterion, both orders combined:", "", *_criterion_table(rows, "")]
    lines += ["", "Per criterion, single order:", "", *_criterion_table(rows, "single_")]
    lines += ["", f"- Both orders combined: {RULE_NOTE}", f"- {SINGLE_NOTE}"]
    lines.append("- Pairs the judge could not answer (errors) are left out of the shares.")
    lines.append(f"- {PAPER_NOTE}")
    return "\n".join(lines) + "\n"
