"""The paper's discussion figures as tables (§5.3): acts per turn, successes by turn, popularity.

Each function takes the frames of `macrs_sim.analysis.runs.load.RunData` and returns a long
frame with one row per cell of the figure, so the numbers behind a plot can be read,
tested and written to CSV without drawing anything.

- `act_ratios` (Figure 4): the share of each dialogue act among the system's responses at
  each turn. Its denominator is the dialogues that reached the turn, so it shrinks as
  dialogues end.
- `cumulative_successes` (Figure 5): how many dialogues had succeeded by each turn.
- `bucket_performance` (Figure 6): success rate and Hit@10 per target-popularity bucket.

Every dialogue counts, as in `metrics.outcomes` (the paper divides by all N samples): one that
ended in an error is a failure in `cumulative_successes` and `bucket_performance`, and
its turns count in `act_ratios`, since the acts were chosen all the same.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import pandas as pd

from macrs_sim.analysis.metrics.rows import rows_where
from macrs_sim.protocol import DialogueAct

PAPER_ACTS: tuple[str, ...] = tuple(a.value for a in DialogueAct)

_ACT_COLUMNS = ["system", "turn", "act", "count", "total", "ratio"]
_CUM_COLUMNS = ["system", "turn", "successes", "dialogues", "rate"]
_BUCKET_COLUMNS = ["system", "bucket", "n", "success_rate", "hit@10"]


def _act_order(turns: pd.DataFrame) -> list[str]:
    others = sorted({str(a) for a in turns["act"].dropna()} - set(PAPER_ACTS))
    return [*PAPER_ACTS, *others]


def _ratio(part: float, whole: float) -> float:
    return part / whole if whole else math.nan


def act_ratios(
    turns: pd.DataFrame, systems: Sequence[str], *, acts: Sequence[str] | None = None
) -> pd.DataFrame:
    """Per system and turn, the share of the responses that were each act (Figure 4).

    Turns run from 1 to the last turn any of `systems` reached; every (system, turn, act)
    has a row, with count 0 where the act was never chosen and ratio NaN where no dialogue
    of the system reached the turn. `acts` picks and orders the acts shown; by default the
    paper's three ("ask", "chat", "recommend") come first, then any other act names sorted.
    `total` always counts every response of the turn, whichever acts are shown.
    """
    rows = rows_where(turns, turns["system"].isin(list(systems)))
    order = list(acts) if acts is not None else _act_order(rows)
    last = int(rows["turn"].max()) if len(rows) else 0
    # Counted over the columns' values, not grouped: a groupby hashes and copies the whole
    # frame. A missing key is never looked up below, as groupby would have dropped it.
    system, turn = rows["system"].to_numpy(dtype=object), rows["turn"].to_numpy()
    counts = Counter(zip(system, turn, rows["act"].to_numpy(dtype=object), strict=True))
    totals = Counter(zip(system, turn, strict=True))
    out = []
    for system in systems:
        for turn in range(1, last + 1):
            total = int(totals.get((system, turn), 0))
            for act in order:
                count = int(counts.get((system, turn, act), 0))
                out.append([system, turn, act, count, total, _ratio(count, total)])
    return pd.DataFrame(out, columns=_ACT_COLUMNS)


def cumulative_successes(
    dialogues: pd.DataFrame, systems: Sequence[str], max_turns: int
) -> pd.DataFrame:
    """Per system and turn 1..max_turns, the dialogues that succeeded by then (Figure 5).

    `dialogues` counts all the system's dialogues and `rate` divides by it (an error never
    succeeds); NaN when the system has none.
    """
    out = []
    for system in systems:
        mine = rows_where(dialogues, dialogues["system"] == system)
        won = pd.to_numeric(mine.loc[mine["status"] == "success", "success_turn"])
        for turn in range(1, max_turns + 1):
            successes = int((won <= turn).sum())
            out.append([system, turn, successes, len(mine), _ratio(successes, len(mine))])
    return pd.DataFrame(out, columns=_CUM_COLUMNS)


def bucket_performance(
    dialogues: pd.DataFrame, systems: Sequence[str], buckets: Sequence[str]
) -> pd.DataFrame:
    """Per system and popularity bucket, success rate and Hit@10 (Figure 6).

    Buckets come in the given order (`data.popularity.bucket_labels`); dialogues without a
    bucket, or with one not listed, are ignored. `n` counts every dialogue of the cell, errors
    included (as failures). Rates are NaN for an empty bucket (n == 0).
    """
    out = []
    for system in systems:
        mine = rows_where(dialogues, dialogues["system"] == system)
        for bucket in buckets:
            cell = mine[mine["bucket"] == bucket]
            n = len(cell)
            success = float(cell["success"].mean()) if n else math.nan
            hit = float(cell["hit@10"].mean()) if n else math.nan
            out.append([system, bucket, n, success, hit])
    return pd.DataFrame(out, columns=_BUCKET_COLUMNS)
