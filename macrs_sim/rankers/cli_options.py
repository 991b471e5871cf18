"""What `models train` and `eval sequential` share: `--set` overrides, the seed, the
cache folder, the split of a sample set, the epoch bars."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from macrs_sim.errors import ConfigError


def overrides(pairs: Sequence[str], kinds: Sequence[str]) -> dict[str, dict[str, str]]:
    """`--set KEY=VALUE` (one model) or `--set MODEL.KEY=VALUE` -> per-model overrides."""
    out: dict[str, dict[str, str]] = {k: {} for k in kinds}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        model, dot, name = key.rpartition(".")
        if not sep or not name or (not dot and len(kinds) != 1):
            raise ConfigError(f"--set {pair!r}: expected MODEL.KEY=VALUE (or KEY=VALUE)")
        target = model if dot else kinds[0]
        if target not in out:
            raise ConfigError(f"--set {pair!r}: model {target!r} is not being trained")
        out[target][name] = value
    return out


def check_seed(seed: int | None) -> None:
    """`--seed` as every trainer can take it (torch and numpy): 0 to 2**63 - 1."""
    from macrs_sim.rankers.params import MAX_SEED

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"--seed {seed}: expected a whole number from 0 to {MAX_SEED}")


def with_seed(kind: str, overrides: dict[str, str], seed: int | None) -> dict[str, str]:
    from macrs_sim.rankers.train import params_model

    check_seed(seed)
    if seed is not None and "seed" in params_model(kind).model_fields:
        return {"seed": str(seed), **overrides}
    return overrides


@contextmanager
def progress_bars(enabled: bool) -> Iterator[Any]:
    """A factory of per-model epoch hooks drawing one rich bar each (None when disabled)."""
    if not enabled:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("loss {task.fields[loss]}  val NDCG@10 {task.fields[val]}"),
               TimeElapsedColumn())  # fmt: skip
    with Progress(*columns, console=Console(stderr=True), transient=False) as bars:

        def factory(kind: str) -> Any:
            tasks: list[Any] = []  # a bar appears with the first epoch (none for count models)

            def hook(r: Any) -> None:
                if not tasks:
                    tasks.append(bars.add_task(kind, total=r.epochs, loss="-", val="-"))
                best = f"{r.val_ndcg:.4f} (best epoch {r.best_epoch})"
                loss = f"{r.loss:.4f}"
                bars.update(tasks[0], total=r.epochs, completed=r.epoch, loss=loss, val=best)

            return hook

        yield factory


def cache_dir(args: argparse.Namespace, data: Any) -> Path:
    from macrs_sim.rankers.cache import default_cache_dir

    return Path(args.cache_dir) if args.cache_dir else default_cache_dir(data)


def split_of(args: argparse.Namespace, data: Any) -> Any:
    from macrs_sim.data.sample_set import read_sample_set
    from macrs_sim.data.splits import campaign_split, leave_one_out

    if args.sample_set is None:
        return leave_one_out(data)
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import open_dataset

    catalog = open_dataset(DataConfig(dataset=args.dataset)).catalog
    identity = (data.dataset_name, data.fingerprint)
    _, samples = read_sample_set(Path(args.sample_set), catalog, dataset=identity)
    return campaign_split(data, samples)


def csv_list(text: str, what: str) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise ConfigError(f"{what}: empty list")
    return items


def common_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, help="seed of the torch models (default 0)")
    p.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="a hyperparameter, e.g. epochs=20 or sasrec.dim=128 (repeatable)",
    )  # fmt: skip
    p.add_argument("--cache-dir", help="checkpoints (default: DATABASE.models/ beside it)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
