"""`macrs-sim models train` and `macrs-sim eval sequential`: trained item rankers.

`models train toolrec` trains ToolRec's retrieval tools: the SASRec backbone, then each
attribute encoder.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from macrs_sim.cli_eval_interecagent import add_interecagent_eval
from macrs_sim.cli_eval_recmind import add_recmind_eval
from macrs_sim.cli_eval_toolrec import add_toolrec_eval
from macrs_sim.errors import ConfigError

console = Console(markup=False, highlight=False)


def _overrides(pairs: Sequence[str], kinds: Sequence[str]) -> dict[str, dict[str, str]]:
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


def _check_seed(seed: int | None) -> None:
    """`--seed` as every trainer can take it (torch and numpy): 0 to 2**63 - 1."""
    from macrs_sim.rankers.params import MAX_SEED

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"--seed {seed}: expected a whole number from 0 to {MAX_SEED}")


def _with_seed(kind: str, overrides: dict[str, str], seed: int | None) -> dict[str, str]:
    from macrs_sim.rankers.train import params_model

    _check_seed(seed)
    if seed is not None and "seed" in params_model(kind).model_fields:
        return {"seed": str(seed), **overrides}
    return overrides


@contextmanager
def _progress(enabled: bool) -> Iterator[Any]:
    """A factory of per-model epoch hooks drawing one rich bar each (None when disabled)."""
    if not enabled:
        yield None
        return
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


def _cache_dir(args: argparse.Namespace, data: Any) -> Path:
    from macrs_sim.rankers.cache import default_cache_dir

    return Path(args.cache_dir) if args.cache_dir else default_cache_dir(data)


def _split(args: argparse.Namespace, data: Any) -> Any:
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


def _train(args: argparse.Namespace) -> int:
    if args.model == "toolrec":
        return _train_toolrec(args, _overrides(args.set, ["toolrec"])["toolrec"])
    from macrs_sim.data.splits import load_interactions
    from macrs_sim.rankers.train import check_kind, make_params, train_ranker

    kind = check_kind(args.model)
    params = make_params(kind, _with_seed(kind, _overrides(args.set, [kind])[kind], args.seed))
    data = load_interactions(args.dataset)
    split = _split(args, data)
    with _progress(not args.no_progress) as factory:
        hook = factory(kind) if factory is not None else None
        trained = train_ranker(kind, data, split, params, _cache_dir(args, data), hook)
    rec = trained.record
    how = "cached (trained" if trained.cache_hit else "trained"
    line = f"{how} {kind} on {data.dataset_name}, {split.name} split, in {rec['train_seconds']} s"
    line += ")" if trained.cache_hit else ""
    if "best_epoch" in rec:
        line += f"; best validation NDCG@10 {rec['best_val_ndcg']:.4f} at epoch {rec['best_epoch']}"
    # Plain print: one unwrapped line whatever the terminal width.
    print(line)
    print(f"checkpoint: {trained.checkpoint}")
    return 0


def _toolrec_params(overrides: dict[str, str], seed: int | None) -> Any:
    import importlib.util

    from pydantic import ValidationError

    from macrs_sim.rankers.params import ToolRecParams
    from macrs_sim.rankers.train import RECSYS_HINT, params_error

    if importlib.util.find_spec("torch") is None:
        raise ConfigError(f"model 'toolrec' needs torch: {RECSYS_HINT}")
    _check_seed(seed)
    values = {"seed": str(seed), **overrides} if seed is not None else overrides
    try:
        return ToolRecParams.model_validate(values, strict=False)
    except ValidationError as err:
        raise params_error("toolrec parameter", err) from None


def _toolrec_stage_line(name: str, rec: dict[str, Any]) -> str:
    return (f"  {name}: best validation NDCG@10 {rec['best_val_ndcg']:.4f} at epoch "
            f"{rec['best_epoch']} of {rec['epochs_run']}")  # fmt: skip


def _train_toolrec(args: argparse.Namespace, overrides: dict[str, str]) -> int:
    """Both stages, each from the cache or trained: the SASRec backbone, then each attribute."""
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import open_dataset
    from macrs_sim.data.splits import interactions_of
    from macrs_sim.rankers.torch.toolrec_train import train_toolrec

    params = _toolrec_params(overrides, args.seed)
    cfg = DataConfig(dataset=args.dataset)
    dataset = open_dataset(cfg)
    data = interactions_of(dataset, cfg)
    split = _split(args, data)
    with _progress(not args.no_progress) as factory:
        hooks = (lambda name: factory(f"toolrec {name}")) if factory is not None else None
        trained = train_toolrec(data, dataset, _cache_dir(args, data), params, split, hooks)
    backbone, rec = trained.backbone.record, trained.record
    seconds = round(backbone["train_seconds"] + rec["train_seconds"], 3)
    how = "cached (trained" if trained.cache_hit else "trained"
    line = f"{how} toolrec on {data.dataset_name}, {split.name} split, in {seconds} s"
    line += ")" if trained.cache_hit else ""
    cached = ", cached" if trained.backbone.cache_hit else ""
    line += f": sasrec backbone {backbone['train_seconds']} s{cached}"
    line += f", attribute encoders {rec['train_seconds']} s"
    print(line)  # plain print: one unwrapped line whatever the terminal width
    print(_toolrec_stage_line("sasrec (frozen)", backbone))
    for attr in trained.retriever.attributes:  # the record's keys come back sorted
        print(_toolrec_stage_line(attr, rec["attributes"][attr]))
    print(f"checkpoint: {trained.checkpoint}")
    print(f"backbone checkpoint: {trained.backbone.checkpoint}")
    return 0


def _csv_list(text: str, what: str) -> list[str]:
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise ConfigError(f"{what}: empty list")
    return items


def _eval_sequential(args: argparse.Namespace) -> int:
    from macrs_sim.data.splits import load_interactions
    from macrs_sim.rankers.sequential import evaluate_models, stopping_line, write_results
    from macrs_sim.rankers.train import check_kind, make_params

    kinds = [check_kind(k) for k in _csv_list(args.models, "--models")]
    try:
        ks = sorted({int(k) for k in _csv_list(args.k, "--k")})
    except ValueError:
        raise ConfigError(f"--k {args.k!r}: expected positive integers like 5,10,20") from None
    if ks[0] < 1:
        raise ConfigError(f"--k {args.k!r}: expected positive integers like 5,10,20")
    sets = _overrides(args.set, kinds)
    params = {k: make_params(k, _with_seed(k, sets[k], args.seed)) for k in kinds}
    data = load_interactions(args.dataset)
    with _progress(not args.no_progress) as factory:
        rows = evaluate_models(data, params, ks, _cache_dir(args, data), factory)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", data.dataset_name).strip("-") or "dataset"
    paths = write_results(Path(args.out or f"reports/sequential-{slug}"), data, rows)
    title = f"{data.dataset_name}: leave-one-out, full ranking, {rows[0].n_users} users"
    table = Table(title=title, box=None, pad_edge=False)
    metric_names = list(rows[0].metrics)
    for col in ["model", *metric_names, "train s"]:
        table.add_column(col, justify="left" if col == "model" else "right", no_wrap=True)
    for r in rows:
        cells = [f"{r.metrics[m]:.3f}" for m in metric_names]
        table.add_row(r.model, *cells, "cached" if r.cache_hit else f"{r.train_seconds:.1f}")
    console.print(table)
    for line in filter(None, map(stopping_line, rows)):
        print(line)  # plain print: one unwrapped line whatever the terminal width
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, help="seed of the torch models (default 0)")
    p.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE",
        help="a hyperparameter, e.g. epochs=20 or sasrec.dim=128 (repeatable)",
    )  # fmt: skip
    p.add_argument("--cache-dir", help="checkpoints (default: DATABASE.models/ beside it)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")


def add_model_commands(
    sub: argparse._SubParsersAction[Any],
    models: argparse._SubParsersAction[Any],
) -> None:
    """`models train` (beside `models check`) and the `eval` group."""
    train = models.add_parser("train", help="train an item ranker (cached beside the dataset)")
    train.add_argument("model", help="sasrec, itemcf, bpr, popularity or toolrec")
    train.add_argument("dataset", help="'demo' or a prepared database")
    train.add_argument(
        "--sample-set", help="a sample set: campaign split (its targets and later items hidden)"
    )
    _common(train)
    train.set_defaults(func=_train)
    ev = sub.add_parser("eval", help="offline evaluation").add_subparsers(
        dest="eval_cmd", required=True
    )
    seq = ev.add_parser("sequential", help="leave-one-out, full ranking: HR@K, NDCG@K, MRR")
    seq.add_argument("dataset", help="'demo' or a prepared database")
    seq.add_argument("--models", default="popularity,itemcf,bpr,sasrec", help="comma list")
    seq.add_argument("--k", default="5,10,20", help="cut-offs for HR and NDCG (comma list)")
    seq.add_argument("--out", help="folder for results.csv and results.json")
    _common(seq)
    seq.set_defaults(func=_eval_sequential)
    add_interecagent_eval(ev)
    add_toolrec_eval(ev)
    add_recmind_eval(ev)
