"""The review file -> interactions, streamed: each usable review is written as it is read.

Nothing but counts stays in memory, so a 7-million-review file prepares in the memory of
the business ids alone. A review is an interaction: `user_id`, `business_id`, rating =
`stars`, timestamp = `date` ("YYYY-MM-DD HH:MM:SS", taken as UTC; releases before 2018
wrote "YYYY-MM-DD", read as midnight). Review ids are not checked for repeats (that would
hold millions of ids); the text is kept only with `keep_text`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from macrs_sim.data.prepared import DatabaseWriter, Dropped, Interaction
from macrs_sim.data.yelp.business import business_id
from macrs_sim.data.yelp.records import BadRow, JsonLines, Record, RowPolicy, show
from macrs_sim.data.yelp.spec import YelpOptions
from macrs_sim.errors import DataError

MALFORMED = "malformed lines of the review file"
UNKNOWN = "reviews of businesses with no metadata"
BELOW_MIN_STARS = "reviews below --min-stars"
TRUNCATED = "truncated last lines of the review file"
_REASONS = (MALFORMED, TRUNCATED, UNKNOWN, BELOW_MIN_STARS)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}:\d{2})?")


@dataclass
class ReviewCounts:
    read: int = 0  # reviews whose record was usable, kept or not
    kept: int = 0
    newest: int | None = None  # timestamp of the newest usable review: names the release


def timestamp(value: object) -> int:
    """Seconds since the epoch of a Yelp date, read as UTC; BadRow when it is none."""
    text = value.strip() if isinstance(value, str) else ""
    try:
        if not _DATE.fullmatch(text):
            raise ValueError(text)
        when = datetime.fromisoformat(text)  # 3.11 reads "YYYY-MM-DD HH:MM:SS"
    except ValueError:
        raise BadRow(MALFORMED, f"date is {show(value)}",
                     "a date as YYYY-MM-DD HH:MM:SS") from None  # fmt: skip
    return int(when.replace(tzinfo=UTC).timestamp())


def _text(record: Record, field: str) -> str:
    value = record.get(field)
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise BadRow(MALFORMED, f"{field} is {show(value)}", f"a {field} string")


def _stars(value: object) -> float:
    # NaN and infinities fail the range; bool is an int, and no number of stars.
    if isinstance(value, int | float) and not isinstance(value, bool) and 1 <= value <= 5:
        return float(value)
    raise BadRow(MALFORMED, f"stars is {show(value)}", "a number of stars from 1 to 5")


def interaction(record: Record, keep_text: bool) -> Interaction:
    """The review as an interaction; BadRow when a field it needs is missing or wrong."""
    text = record.get("text") if keep_text else None
    return Interaction(
        user_id=_text(record, "user_id"),
        item_id=business_id(record, "review"),
        rating=_stars(record.get("stars")),
        timestamp=timestamp(record.get("date")),
        review=text if isinstance(text, str) else None,
    )


class ReviewPass:
    """One pass over the review file, feeding the writer and counting as it goes."""

    def __init__(self, known: set[str], business_file: str, policy: RowPolicy) -> None:
        self.known = known
        self.business_file = business_file
        self.policy = policy
        self.counts = ReviewCounts()

    def _usable(self, record: Record, keep_text: bool) -> Interaction:
        row = interaction(record, keep_text)
        self.counts.read += 1
        if self.counts.newest is None or row.timestamp > self.counts.newest:
            self.counts.newest = row.timestamp
        if row.item_id not in self.known:
            raise BadRow(UNKNOWN, f"business {row.item_id!r} is not in {self.business_file}",
                         "every reviewed business to be listed there")  # fmt: skip
        return row

    def rows(self, lines: JsonLines, options: YelpOptions) -> Iterator[Interaction]:
        least = options.min_stars
        for line, record in lines:
            try:
                row = self._usable(record, options.keep_text)
            except BadRow as bad:
                self.policy.reject(line, bad)
                continue
            if least is not None and row.rating is not None and row.rating < least:
                self.policy.dropped.add(BELOW_MIN_STARS)  # a choice, not a bad row: no refusal
                continue
            self.counts.kept += 1
            yield row


def load_reviews(
    path: Path, writer: DatabaseWriter, known: set[str], business_file: str,
    policy: RowPolicy, options: YelpOptions,
) -> ReviewCounts:  # fmt: skip
    """Write every kept review in file order; an error when none is kept."""
    review_pass = ReviewPass(known, business_file, policy)
    lines = JsonLines(path, "review", policy)
    writer.add_interactions(review_pass.rows(lines, options))
    if review_pass.counts.kept == 0:
        raise _none_kept(path, lines.n_lines, policy.dropped, options.min_stars)
    return review_pass.counts


def _none_kept(path: Path, n_lines: int, dropped: Dropped, min_stars: float | None) -> DataError:
    if n_lines == 0:
        return DataError(f"{path.name}:1: no reviews; expected one JSON record per line")
    own = Dropped({r: n for r, n in dropped.counts.items() if r in _REASONS})
    least = "" if min_stars is None else f" of at least {min_stars:g} stars"
    return DataError(
        f"{path.name}: no review kept of {n_lines:,} lines ({'; '.join(own.lines())}); "
        f"expected at least one review{least} of a listed business"
    )
