"""Row selection that copies nothing when nothing is dropped."""

from __future__ import annotations

import pandas as pd


def rows_where(frame: pd.DataFrame, mask: pd.Series) -> pd.DataFrame:
    """`frame[mask]`, or `frame` itself when every row is kept: a run of one system would
    otherwise copy its million-row turns frame to drop none of them."""
    return frame if bool(mask.all()) else frame[mask]
