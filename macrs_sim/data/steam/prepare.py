"""Steam (Kang & McAuley, UCSD) -> the prepared database: `data prepare steam PATH`.

Two passes, neither holding a file in memory: the games (steam_games.json) become items
and leave only their ids behind; then the chosen reviews file is streamed into the
interactions as read. Bad lines and reviews are dropped and counted by reason (meta and
printed lines), or refused in one line with `strict`; the database appears only complete.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from macrs_sim.data.prepared import DatabaseWriter, PrepareResult, write_atomically
from macrs_sim.data.steam.australian import UNDATED_YEAR, australian_reviews
from macrs_sim.data.steam.catalog import load_games
from macrs_sim.data.steam.layout import Layout, locate
from macrs_sim.data.steam.records import Rejects
from macrs_sim.data.steam.reviews import Reviews, steam_reviews
from macrs_sim.data.steam.spec import SteamOptions
from macrs_sim.errors import DataError

KIND = "steam"
_EXPECTED = "Steam files as UCSD publishes them (one Python dict literal per line)"


@dataclass(frozen=True)
class Built:
    sizes: tuple[int, int, int]  # users, items, interactions
    undated: int  # Australian reviews dated in UNDATED_YEAR


def _meta(layout: Layout, options: SteamOptions, reviews: Reviews) -> dict[str, str]:
    meta = {
        "kind": KIND,
        "release": f"{KIND}:{layout.which}",
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "strict": "true" if options.strict else "false",
        "keep_text": "true" if options.keep_text else "false",
        "games_file": layout.games.name,
        "interactions_file": layout.interactions.name,
        **reviews.rejects.dropped.meta(),
    }
    if layout.which == "australian":
        meta |= {"undated_year": str(UNDATED_YEAR), "undated_reviews": str(reviews.undated)}
    return meta


def _build(layout: Layout, options: SteamOptions, rejects: Rejects, tmp: Path) -> Built:
    writer = DatabaseWriter(tmp)
    try:
        known = load_games(layout.games, writer, rejects)
        reviews = Reviews(known, layout.games.name, rejects, options.keep_text)
        read = steam_reviews if layout.which == "reviews" else australian_reviews
        writer.add_interactions(read(layout.interactions, reviews))
        sizes = writer.finish(
            _meta(layout, options, reviews), drop_unused_items=True, core=options.core
        )
    finally:
        writer.close()
    if sizes[2] == 0:  # the finished temporary file is removed by write_atomically
        raise DataError(
            f"{layout.interactions.name}: no review of a game in {layout.games.name}; "
            "expected at least one"
        )
    return Built(sizes, reviews.undated)


def _lines(layout: Layout, rejects: Rejects, built: Built) -> tuple[str, ...]:
    lines = [layout.note] if layout.note else []
    if built.undated:
        lines.append(
            f"dated {built.undated:,} reviews posted without a year in {UNDATED_YEAR} "
            "(the year of the crawl)"
        )
    return (*lines, *rejects.dropped.lines())


def prepare(source: Path, out: Path, options: SteamOptions, *, overwrite: bool) -> PrepareResult:
    """Build the database at `out` from the Steam folder `source`."""
    started = time.perf_counter()
    source, out = Path(source), Path(out)
    layout = locate(source, options.interactions)
    rejects = Rejects(options.strict)

    def build(tmp: Path) -> Built:
        return _build(layout, options, rejects, tmp)

    built = write_atomically(out, overwrite, build, source, _EXPECTED)
    n_users, n_items, n_interactions = built.sizes
    return PrepareResult(
        database=out,
        kind=KIND,
        release=f"{KIND}:{layout.which}",
        n_users=n_users,
        n_items=n_items,
        n_interactions=n_interactions,
        wall_s=time.perf_counter() - started,
        lines=_lines(layout, rejects, built),
    )
