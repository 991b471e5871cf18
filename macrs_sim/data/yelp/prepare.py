"""The Yelp Open Dataset (business and review JSON lines) -> the prepared database.

`data prepare yelp PATH` reads `yelp_academic_dataset_business.json` (the items, first;
data/yelp/business.py) and streams `yelp_academic_dataset_review.json` (the interactions;
data/yelp/reviews.py), plain or .gz. Every review is kept unless `--min-stars` says
otherwise; businesses nobody reviewed are left out. The release is named "yelp:YEAR", the
year of the newest review in the file (the files carry no version of their own), whatever
`--min-stars` keeps; meta also stores that review's date (`newest_review`).

What the seed papers did with Yelp (shared/seeds):
- ToolRec (Yelp2018: "the 2018 edition of the Yelp Challenge"): 10-core users and items;
  categories, city and stars as attributes; interactions ordered by timestamp. A star
  threshold (which reviews count as positives): not stated in the paper; a setup that
  wants only >= 4 stars as positives passes `--min-stars 4`. By default this loader applies no
  k-core filter (the sample rules' history length and minimum choose users); `--core 10`
  gives ToolRec's.
- RecMind (Yelp, "following P5", Geng et al., 2022): rating prediction (RMSE, MAE) and
  direct and sequential recommendation; rating prediction needs every star, so all
  reviews. Any other filtering: not stated.
- MACRS and InteRecAgent: do not use Yelp.

Bad rows are dropped and counted (meta `dropped: <reason>`, printed), or with `--strict`
refused in one line naming file:line; reviews under `--min-stars` are counted apart and are
never refused. Nothing is left half-written (prepared/atomic.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from macrs_sim.data.prepared import DatabaseWriter, Dropped, PrepareResult, write_atomically
from macrs_sim.data.yelp.business import load_businesses
from macrs_sim.data.yelp.layout import YelpFiles, locate
from macrs_sim.data.yelp.records import RowPolicy
from macrs_sim.data.yelp.reviews import ReviewCounts, load_reviews
from macrs_sim.data.yelp.spec import YelpOptions

KIND = "yelp"
EXPECTED = "the Yelp Open Dataset's business and review files as Yelp publishes them"


@dataclass(frozen=True)
class Built:
    release: str
    sizes: tuple[int, int, int]  # users, items, interactions
    dropped: Dropped


def release_name(counts: ReviewCounts) -> str:
    if counts.newest is None:
        return KIND
    return f"{KIND}:{datetime.fromtimestamp(counts.newest, UTC).year}"


def _meta(
    files: YelpFiles, options: YelpOptions, counts: ReviewCounts, n_listed: int, dropped: Dropped
) -> dict[str, str]:
    newest = datetime.fromtimestamp(counts.newest or 0, UTC)
    return {
        "kind": KIND,
        "release": release_name(counts),
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "strict": "true" if options.strict else "false",
        "min_stars": "none" if options.min_stars is None else f"{options.min_stars:g}",
        "keep_text": "true" if options.keep_text else "false",
        "business_file": files.business.name,
        "review_file": files.review.name,
        "businesses_listed": str(n_listed),
        "newest_review": newest.isoformat(sep=" "),
        **dropped.meta(),
    }


def build(files: YelpFiles, path: Path, options: YelpOptions) -> Built:
    """Items first (their ids kept), then the reviews streamed in file order."""
    dropped = Dropped()
    policy = RowPolicy(options.strict, dropped)
    writer = DatabaseWriter(path)
    try:
        known = load_businesses(files.business, writer, policy)
        counts = load_reviews(files.review, writer, known, files.business.name, policy, options)
        meta = _meta(files, options, counts, len(known), dropped)
        sizes = writer.finish(meta, drop_unused_items=True, core=options.core)
    finally:
        writer.close()
    return Built(release_name(counts), sizes, dropped)


def prepare(
    source: Path, out: Path, options: YelpOptions, *, overwrite: bool = False
) -> PrepareResult:
    """Build the database at `out` from the Yelp files at `source` (folder or business file)."""
    started = time.perf_counter()
    source, out = Path(source), Path(out)
    files = locate(source)
    built = write_atomically(
        out, overwrite, lambda tmp: build(files, tmp, options), source, EXPECTED
    )
    n_users, n_items, n_interactions = built.sizes
    return PrepareResult(
        database=out,
        kind=KIND,
        release=built.release,
        n_users=n_users,
        n_items=n_items,
        n_interactions=n_interactions,
        wall_s=time.perf_counter() - started,
        lines=tuple(built.dropped.lines()),
    )
