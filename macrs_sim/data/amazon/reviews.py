"""The reviews file -> interactions, streamed: each review is written as it is read.

A review is a user's interaction with an item (its rating and time in seconds; the
review's text and headline too where `keep_text`). File order is kept: the database's
rowid breaks ties of time, as MovieLens ratings' do. 2023 times are in milliseconds and
are floored to seconds, so two reviews in one second keep their file order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from macrs_sim.data.amazon.fields import FIELDS, ReleaseFields, confirm_release
from macrs_sim.data.amazon.items import Catalogue, text_id
from macrs_sim.data.amazon.layout import Source
from macrs_sim.data.amazon.records import Policy, records
from macrs_sim.data.prepared import DatabaseWriter, Interaction
from macrs_sim.errors import DataError

EXPECTED = "one review per line, a JSON object as published"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _number(value: object) -> float | None:
    """A finite number, from a number or its text ("5.0"); None for anything else."""
    if isinstance(value, bool):  # True is an int to Python, not a rating
        return None
    if isinstance(value, int):
        return float(value) if abs(value) < 2**63 else None
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return None
    if isinstance(value, float) and math.isfinite(value):
        return value
    return None


def _seconds(value: object, per_second: int) -> int | None:
    number = _number(value)
    if number is None or not number.is_integer():
        return None
    whole = value if isinstance(value, int) else int(number)
    return whole // per_second


def interaction(fields: dict[str, Any], names: ReleaseFields, keep_text: bool) -> Interaction | str:
    """The review as an interaction, or what is wrong with it (one clause)."""
    user, item = text_id(fields.get(names.user)), text_id(fields.get(names.item))
    for key, found in ((names.user, user), (names.item, item)):
        if not found:
            return f"review has no {key!r}; expected {names.required}"
    rating = _number(fields.get(names.rating))
    if rating is None:
        return f"{names.rating!r} is {_shown(fields.get(names.rating))}; expected a number"
    seconds = _seconds(fields.get(names.time), names.per_second)
    if seconds is None:
        unit = "milliseconds" if names.per_second == 1000 else "seconds"
        found_time = _shown(fields.get(names.time))
        return f"{names.time!r} is {found_time}; expected a whole number of {unit}"
    if not keep_text:
        return Interaction(user, item, rating, seconds)
    text, summary = fields.get(names.text), fields.get(names.summary)
    review = text if isinstance(text, str) else ""
    headline = summary if isinstance(summary, str) and summary else None
    if not review and headline is None:
        return Interaction(user, item, rating, seconds)
    return Interaction(user, item, rating, seconds, review=review, summary=headline)


def load_reviews(
    source: Source, catalogue: Catalogue, policy: Policy, writer: DatabaseWriter, keep_text: bool
) -> int:
    """Write every review of a kept item; returns how many were written."""
    names = FIELDS[source.release]
    kept = 0

    def rows() -> Iterator[Interaction]:
        nonlocal kept
        for n, record in enumerate(records(source.reviews, False, "review", EXPECTED, policy)):
            if n == 0:
                confirm_release(record, source.release, names.user, "reviews")
            where = record.line.where()
            made = interaction(record.fields, names, keep_text)
            if isinstance(made, str):
                policy.reject(where, "reviews with a missing or bad field", made)
            elif made.item_id in catalogue.known:
                kept += 1
                yield made
            elif made.item_id in catalogue.untitled:
                policy.dropped.add("reviews of items with no title")
            else:
                problem = (
                    f"item {made.item_id} is not in {source.meta.name}; expected every "
                    "reviewed item to be listed there"
                )
                policy.reject(where, "reviews of items with no metadata", problem)

    writer.add_interactions(rows())
    if not kept:
        raise DataError(
            f"{source.reviews.name}: no review of a listed product; expected reviews of the "
            f"products in {source.meta.name}"
        )
    return kept
