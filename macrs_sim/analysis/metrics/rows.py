"""Row selection that copies nothing when nothing is dropped, and the grouping a loaded
run's turns already have (each dialogue's rows together, in turn order) used as it is."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd


def rows_where(frame: pd.DataFrame, mask: pd.Series) -> pd.DataFrame:
    """`frame[mask]`, or `frame` itself when every row is kept: a run of one system would
    otherwise copy its million-row turns frame to drop none of them."""
    return frame if bool(mask.all()) else frame[mask]


def grouped_codes(rows: pd.DataFrame) -> np.ndarray[Any, Any] | None:
    """Each row's dialogue as a number, when the rows already come as the sort would leave
    them (each dialogue's rows together, turns not decreasing: a loaded run's turns do);
    None otherwise. Saves a hash table and a sort the size of the frame."""
    ids = rows["dialogue_id"].to_numpy(dtype=object)
    if len(ids) == 0 or pd.isna(ids).any():
        return None
    starts = np.concatenate(([True], ids[1:] != ids[:-1]))
    turns = rows["turn"].to_numpy()
    if (
        turns.dtype.kind != "i"  # (np.diff of unsigned turns wraps around)
        or (np.diff(turns)[~starts[1:]] < 0).any()
        or not pd.Index(ids[starts]).is_unique
    ):
        return None
    return np.cumsum(starts) - 1


def distinct_turns(rows: pd.DataFrame) -> int:
    """`len(rows[["dialogue_id", "turn"]].drop_duplicates())`, without hashing every row
    when the rows come grouped (a loaded run's turns do)."""
    codes = grouped_codes(rows)
    if codes is None:
        return len(rows[["dialogue_id", "turn"]].drop_duplicates())
    if len(codes) == 0:
        return 0
    turns = rows["turn"].to_numpy()
    return 1 + int(((codes[1:] != codes[:-1]) | (turns[1:] != turns[:-1])).sum())
