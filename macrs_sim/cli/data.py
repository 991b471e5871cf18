"""`macrs-sim data ...` and `macrs-sim samples ...`: datasets and sample sets."""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from macrs_sim.errors import DataError

if TYPE_CHECKING:
    from macrs_sim.data.movielens.records import Dropped
    from macrs_sim.protocol import Sample

# No markup: messages quote TOML tables like [data], which rich would swallow as tags.
console = Console(markup=False, highlight=False)


def _prepare(args: argparse.Namespace) -> int:
    from macrs_sim.data.movielens import prepare_movielens

    source = Path(args.path)
    name = source.name.removesuffix(".zip") or "movielens"
    out = Path(args.out) if args.out else Path("data") / f"{name}.sqlite"
    metadata = Path(args.metadata) if args.metadata else None
    if args.min_tag_users < 1:
        raise DataError(f"--min-tag-users {args.min_tag_users}: expected 1 or more")
    s = prepare_movielens(
        source,
        out,
        metadata=metadata,
        overwrite=args.overwrite,
        strict=args.strict,
        min_tag_users=args.min_tag_users,
    )
    console.print(
        f"prepared {s.release} ({s.source_format}): {s.n_users} users, {s.n_items} items, "
        f"{s.n_interactions} interactions in {s.wall_s:.1f} s"
    )
    for line in _dropped_lines(s.dropped, f"movies.{s.source_format}"):
        console.print(line)
    if metadata is not None:
        console.print(
            f"enriched {s.enriched_items} items from {metadata}; "
            f"{s.unmatched_metadata} metadata rows matched no item"
        )
    console.print(f"database: {s.database}")
    console.print(f'use it in a scenario: [data] dataset = "{s.database}"')
    return 0


def _dropped_lines(dropped: Dropped, movies_file: str) -> list[str]:
    """What was left out because the movies file does not list the movie; nothing if nothing."""
    lines = []
    if dropped.ratings:
        lines.append(
            f"dropped {_count(dropped.ratings, 'rating')} of "
            f"{_count(dropped.rating_movies, 'movie')} not in {movies_file}"
        )
    if dropped.tags:
        lines.append(
            f"dropped {_count(dropped.tags, 'tag')} of {_count(dropped.tag_movies, 'movie')} "
            f"not in {movies_file}"
        )
    if dropped.links:
        of = "a movie" if dropped.links == 1 else "movies"
        lines.append(
            f"dropped {_count(dropped.links, 'links.csv row')} of {of} not in {movies_file}"
        )
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def _download(args: argparse.Namespace) -> int:
    from macrs_sim.data.movielens import download_movielens

    path = download_movielens(args.name, Path(args.dest))
    console.print(f"downloaded {path}")
    console.print(f"next: macrs-sim data prepare movielens {path}")
    return 0


def _info(args: argparse.Namespace) -> int:
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import open_dataset
    from macrs_sim.data.info import dataset_info

    info = dataset_info(open_dataset(DataConfig(dataset=args.dataset)))
    for line in info.lines():
        console.print(line)
    return 0


def _samples_build(args: argparse.Namespace) -> int:
    from macrs_sim.campaign.sampling import build_sample_set
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.config import load_scenario
    from macrs_sim.llm.factory import preflight

    scenario = load_scenario(args.scenario)
    default = scenario.data.sample_set or f"samples/{scenario.name}.jsonl"
    out = Path(args.out or default)
    if out.exists() and not args.overwrite:
        raise DataError(f"{out}: a sample set is already there (pass --overwrite to replace it)")
    setup = CampaignSetup.from_scenario(scenario)

    async def build() -> list[Sample]:
        try:
            if setup.simulator_uses_llm:
                await preflight(scenario.simulator_model())
            return await build_sample_set(setup, out, progress=not args.no_progress)
        finally:
            await setup.close()

    samples = asyncio.run(build())
    console.print(f"wrote {len(samples)} samples to {out}")
    counts = Counter(s.bucket or "unbucketed" for s in samples)
    console.print("by popularity bucket: " + ", ".join(f"{b} {n}" for b, n in counts.items()))
    console.print(f'use it in a scenario: [data] sample_set = "{out}"')
    return 0


def add_data_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    data = sub.add_parser("data", help="datasets").add_subparsers(dest="data_cmd", required=True)
    prep = data.add_parser("prepare", help="build a dataset database from a download")
    prep_sub = prep.add_subparsers(dest="source_kind", required=True)
    ml = prep_sub.add_parser("movielens", help="a MovieLens release: folder or zip")
    ml.add_argument("path", help="the release folder or .zip (ml-latest-small, ml-25m, ml-1m ...)")
    ml.add_argument("--out", help="database to write (default: data/<release>.sqlite)")
    ml.add_argument("--metadata", help="CSV/JSONL of director, cast, overview, keywords per movie")
    ml.add_argument("--overwrite", action="store_true", help="replace an existing database")
    ml.add_argument(
        "--strict",
        action="store_true",
        help="refuse ratings, tags or links of movies not in the movies file (default: drop "
        "and count them)",
    )
    ml.add_argument(
        "--min-tag-users",
        type=int,
        default=2,
        metavar="N",
        help="keep a user tag as a keyword once N distinct users gave it to the film (default 2)",
    )
    ml.set_defaults(func=_prepare)
    dl = data.add_parser("download", help="fetch an official MovieLens release (needs internet)")
    dl.add_argument("name", help="ml-latest-small, ml-latest, ml-25m, ml-20m, ml-1m or ml-10m")
    dl.add_argument("--dest", default="data", help="folder for the zip (default: data)")
    dl.set_defaults(func=_download)
    info = data.add_parser("info", help="what a dataset holds")
    info.add_argument("dataset", nargs="?", default="demo", help="'demo' or a prepared database")
    info.set_defaults(func=_info)
    samples = sub.add_parser("samples", help="sample sets").add_subparsers(
        dest="samples_cmd", required=True
    )
    build = samples.add_parser("build", help="draw and prepare a scenario's samples, once")
    build.add_argument("scenario")
    build.add_argument(
        "--out",
        help="file to write (default: the scenario's data.sample_set, else samples/NAME.jsonl)",
    )
    build.add_argument("--overwrite", action="store_true", help="replace an existing sample set")
    build.add_argument("--no-progress", action="store_true", help="no progress bars")
    build.set_defaults(func=_samples_build)
