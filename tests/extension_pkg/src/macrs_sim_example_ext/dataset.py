"""A dataset kind of its own: a library's loans as two CSV files, books as the domain.

`macrs-sim data prepare library_loans FOLDER` reads FOLDER/books.csv (book_id, title,
author, subject) and FOLDER/loans.csv (reader, book_id, day: an ISO date); a loan of a
book the books file lacks is dropped and counted (one line under --strict)."""

from __future__ import annotations

import csv
import time
from datetime import UTC, datetime
from pathlib import Path

from pydantic import Field

from macrs_sim import (
    AttributeHint,
    DatasetSpec,
    Domain,
    GroundingPolicy,
    PrepareOptions,
    PrepareResult,
)
from macrs_sim.data.prepared import DatabaseWriter, Dropped, Interaction, write_atomically
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item

BOOKS = Domain(
    name="books",
    noun="book",
    plural="books",
    category_label="subject",
    hints=(AttributeHint("categories", "subject"), AttributeHint("author", "author")),
    grounding=GroundingPolicy(matcher="names", qualifiers=("author",)),
)


class LoanOptions(PrepareOptions):
    since: str | None = Field(default=None, description="keep loans on or after this ISO date")


def _items(path: Path) -> list[Item]:
    with path.open(encoding="utf-8", newline="") as f:
        return [
            Item.model_validate(
                {"item_id": row["book_id"], "title": row["title"],
                 "categories": [row["subject"]], "attributes": {"author": row["author"]}}
            )
            for row in csv.DictReader(f)
        ]  # fmt: skip


def _loans(
    path: Path, known: set[str], options: LoanOptions, dropped: Dropped
) -> list[Interaction]:
    out = []
    with path.open(encoding="utf-8", newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            if options.since and row["day"] < options.since:
                dropped.add("loans before --since")
            elif row["book_id"] not in known:
                if options.strict:
                    raise DataError(
                        f"loans.csv:{line}: book {row['book_id']!r} is not in books.csv"
                    )
                dropped.add("loans of books not in books.csv")
            else:
                day = datetime.fromisoformat(row["day"]).replace(tzinfo=UTC)
                out.append(Interaction(row["reader"], row["book_id"], None, int(day.timestamp())))
    return out


def prepare(source: Path, out: Path, options: LoanOptions, *, overwrite: bool) -> PrepareResult:
    started, dropped = time.perf_counter(), Dropped()

    def build(tmp: Path) -> tuple[int, int, int]:
        items = _items(source / "books.csv")
        loans = _loans(source / "loans.csv", {i.item_id for i in items}, options, dropped)
        writer = DatabaseWriter(tmp)
        try:
            writer.add_items(items)
            writer.add_interactions(loans)
            meta = {"kind": "library_loans", "release": source.name, **dropped.meta()}
            return writer.finish(meta, drop_unused_items=False)
        finally:
            writer.close()

    users, items, rows = write_atomically(out, overwrite, build, source, "books.csv and loans.csv")
    return PrepareResult(out, "library_loans", source.name, users, items, rows,
                         time.perf_counter() - started, tuple(dropped.lines()))  # fmt: skip


SPEC = DatasetSpec(
    kind="library_loans",
    domain=BOOKS,
    options=LoanOptions,
    prepare=f"{__name__}:prepare",
    help="a library's loans: books.csv and loans.csv",
    source_help="the folder holding books.csv and loans.csv",
)
