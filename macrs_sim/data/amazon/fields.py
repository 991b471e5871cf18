"""The field names of each release, and the check that a file holds the release its name says.

The three releases name the same things differently (reviewerID / user_id, asin /
parent_asin, overall / rating, unixReviewTime in seconds / timestamp in milliseconds);
one table per release keeps the readers free of release branches.
"""

from __future__ import annotations

from dataclasses import dataclass

from macrs_sim.data.amazon.records import Record
from macrs_sim.errors import DataError


@dataclass(frozen=True)
class ReleaseFields:
    user: str
    item: str  # the reviewed item: asin, or parent_asin in 2023
    rating: str
    time: str
    per_second: int  # time units per second: 1, or 1000 for 2023's milliseconds
    text: str
    summary: str  # the review's headline: summary, or the review's title in 2023
    meta_id: str  # the item id in the metadata file
    python_meta: bool  # the 2014 metadata: a Python dict literal per line

    @property
    def required(self) -> str:
        return f"{self.user}, {self.item}, {self.rating} and {self.time}"


def _older(python_meta: bool) -> ReleaseFields:
    """2014 and 2018 name their fields alike; their metadata files differ in form."""
    return ReleaseFields(
        user="reviewerID", item="asin", rating="overall", time="unixReviewTime",
        per_second=1, text="reviewText", summary="summary", meta_id="asin",
        python_meta=python_meta,
    )  # fmt: skip


FIELDS = {
    "2014": _older(python_meta=True),
    "2018": _older(python_meta=False),
    "2023": ReleaseFields(
        user="user_id",
        item="parent_asin",
        rating="rating",
        time="timestamp",
        per_second=1000,
        text="text",
        summary="title",
        meta_id="parent_asin",
        python_meta=False,
    ),  # fmt: skip
}


def confirm_release(record: Record, release: str, key: str, what: str) -> None:
    """A first record lacking the release's `key` ("user_id") but holding another
    release's stops the run: the file is not what its name says, and every line of it
    would be dropped."""
    if key in record.fields:
        return
    others = ("2023",) if release != "2023" else ("2014", "2018")
    other = FIELDS[others[0]]
    other_key = other.user if key == FIELDS[release].user else other.meta_id
    if other_key not in record.fields:
        return
    raise DataError(
        f"{record.line.where()}: has {other_key!r} but no {key!r}, like the "
        f"{' and '.join(others)} {what}; expected the {release} release's {what}, as the "
        "file's name says"
    )
