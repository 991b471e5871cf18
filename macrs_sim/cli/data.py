"""`macrs-sim data ...` and `macrs-sim samples ...`: datasets and sample sets."""

from __future__ import annotations

import argparse
import asyncio
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console

from macrs_sim.cli.prepare import add_prepare_command
from macrs_sim.errors import DataError

if TYPE_CHECKING:
    from macrs_sim.protocol import Sample

# No markup: messages quote TOML tables like [data], which rich would swallow as tags.
console = Console(markup=False, highlight=False)


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
    from macrs_sim.config import load_scenario

    # Checked before the campaign's modules (the model clients) are imported.
    scenario = load_scenario(args.scenario)
    default = scenario.data.sample_set or f"samples/{scenario.name}.jsonl"
    out = Path(args.out or default)
    if out.exists() and not args.overwrite:
        raise DataError(f"{out}: a sample set is already there (pass --overwrite to replace it)")

    from macrs_sim.campaign.sampling import build_sample_set
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.llm.factory import preflight

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
    add_prepare_command(data)
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
