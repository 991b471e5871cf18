"""Review text and summaries, aligned with `Interactions.sequences`: review summarisation's
data (paper App. B.1, following P5: summarise a review into its own headline).

A database prepared with `--keep-text` keeps each review's text and summary (Amazon's
`summary`, the 2023 release's `title`) in its `reviews` table, keyed by the interaction's
rowid. The rows are read in the order `data.splits` reads the sequences (user, time, file
order), skipping items outside the catalog as it does, so position i of a user's reviews is
the review of item i of their sequence (None where that interaction kept no text).
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.data.splits import Interactions
from macrs_sim.errors import DataError

# Headlines Amazon writes itself when a reviewer gives none; the paper filters them out
# ("automatically generated review titles such as 'Five Stars'").
AUTOMATIC_SUMMARIES = frozenset(
    {"five stars", "four stars", "three stars", "two stars", "one star"}
)
KEEP_TEXT = "use a database made by `macrs-sim data prepare amazon ... --keep-text`"

_REVIEWS_SQL = (
    "SELECT i.user_id, i.item_id, r.text, r.summary FROM interactions AS i "
    "LEFT JOIN reviews AS r ON r.interaction = i.rowid ORDER BY i.user_id, i.timestamp, i.rowid"
)
_ANY_REVIEW = "SELECT 1 FROM reviews LIMIT 1"
_ANY_SUMMARY = "SELECT 1 FROM reviews WHERE summary IS NOT NULL AND trim(summary) != '' LIMIT 1"


@dataclass(frozen=True)
class Review:
    text: str
    summary: str | None = None

    @property
    def usable(self) -> bool:
        """Text to summarise and a summary the reviewer wrote (not an automatic one)."""
        if not self.text.strip() or self.summary is None:
            return False
        plain = self.summary.strip().rstrip(".!").casefold()
        return bool(plain) and plain not in AUTOMATIC_SUMMARIES


def _check_kept(conn: sqlite3.Connection, database: Path) -> None:
    """DataError unless the database keeps review text, some of it with a summary."""
    table = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'reviews'"
    if conn.execute(table).fetchone() is None or conn.execute(_ANY_REVIEW).fetchone() is None:
        raise DataError(
            f"review summarisation needs review text; {database} keeps none "
            f"(it was prepared without --keep-text: {KEEP_TEXT})"
        )
    if conn.execute(_ANY_SUMMARY).fetchone() is None:
        raise DataError(
            f"review summarisation needs each review's summary; the reviews in {database} "
            f"have none (Amazon's have: {KEEP_TEXT})"
        )


def read_reviews(data: Interactions) -> dict[str, tuple[Review | None, ...]]:
    """Every user's reviews aligned with their sequence; DataError (one line) when the
    dataset keeps no review text or no summary."""
    if data.database is None:
        raise DataError(
            f"review summarisation needs review text; dataset {data.dataset_name!r} has none "
            f"({KEEP_TEXT})"
        )
    known = set(data.item_ids)
    out: dict[str, list[Review | None]] = defaultdict(list)
    uri = f"{data.database.resolve().as_uri()}?mode=ro"
    try:
        with closing(sqlite3.connect(uri, uri=True)) as conn:
            _check_kept(conn, data.database)
            for user, item, text, summary in conn.execute(_REVIEWS_SQL):
                if str(item) in known:
                    head = None if summary is None else str(summary)
                    out[str(user)].append(None if text is None else Review(str(text), head))
    except sqlite3.DatabaseError as err:
        raise DataError(f"{data.database}: cannot read reviews ({err})") from None
    return {u: tuple(r) for u, r in out.items()}
