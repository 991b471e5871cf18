"""`data prepare amazon PATH`: an Amazon Reviews category -> the prepared database.

Two streamed passes, so a category of 10 million reviews needs little memory: the
metadata file's products first (only their ids kept, in a set), then the reviews, each
written as read. Products nobody reviewed are left out when the database is finished
(a metadata file lists every product of its category). The database is built in a
temporary file and renamed in only when complete (write_atomically).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from macrs_sim.data.amazon.items import load_items
from macrs_sim.data.amazon.layout import Source, locate
from macrs_sim.data.amazon.records import Policy
from macrs_sim.data.amazon.reviews import load_reviews
from macrs_sim.data.amazon.spec import AmazonOptions
from macrs_sim.data.prepared import DatabaseWriter, PrepareResult, write_atomically
from macrs_sim.data.registry import PrepareOptions
from macrs_sim.errors import DataError

KIND = "amazon"
EXPECTED = "an Amazon Reviews release as published (2014, 2018 or 2023)"


def _amazon_options(options: PrepareOptions) -> AmazonOptions:
    try:
        return AmazonOptions.model_validate(options.model_dump())
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(map(str, first["loc"]))
        raise DataError(f"amazon options: {where}: {first['msg']}") from None


def _meta(source: Source, options: AmazonOptions, policy: Policy) -> dict[str, str]:
    """What a reader of the database needs to know of its making: the release, the files,
    the options and every count of what was dropped."""
    return {
        "kind": KIND,
        "release": source.name,
        "reviews_file": source.reviews.name,
        "meta_file": source.meta.name,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "strict": "true" if options.strict else "false",
        "keep_text": "true" if options.keep_text else "false",
        **policy.dropped.meta(),
    }


def _build(
    source: Source, options: AmazonOptions, policy: Policy, path: Path
) -> tuple[int, int, int]:
    """Items first (the reviews pass looks their ids up), then reviews; on any failure the
    connection is closed so that write_atomically can remove the temporary file."""
    writer = DatabaseWriter(path)
    try:
        catalogue = load_items(source, policy, writer)
        load_reviews(source, catalogue, policy, writer, options.keep_text)
        return writer.finish(
            _meta(source, options, policy), drop_unused_items=True, core=options.core
        )
    except BaseException:
        writer.close()  # write_atomically removes the file
        raise


def prepare(source: Path, out: Path, options: PrepareOptions, *, overwrite: bool) -> PrepareResult:
    """Build the database at `out` from the reviews file (or its folder) at `source`.

    `options` may be any kind's PrepareOptions (a caller holding the base model's `strict`
    only): they are read into AmazonOptions, a bad value being one line."""
    if not isinstance(options, AmazonOptions):
        options = _amazon_options(options)
    started = time.perf_counter()
    found = locate(Path(source), Path(options.meta) if options.meta else None)
    policy = Policy(options.strict)
    n_users, n_items, n_rows = write_atomically(
        Path(out),
        overwrite,
        lambda tmp: _build(found, options, policy, tmp),
        found.reviews,
        EXPECTED,
    )
    return PrepareResult(
        database=Path(out),
        kind=KIND,
        release=found.name,
        n_users=n_users,
        n_items=n_items,
        n_interactions=n_rows,
        wall_s=time.perf_counter() - started,
        lines=tuple(policy.dropped.lines()),
    )
