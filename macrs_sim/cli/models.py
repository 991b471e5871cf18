"""`macrs-sim models check|train` and the `eval` group with `eval sequential`: model
backends and trained item rankers.

`models train KIND` trains a registered ranker, or runs the `train_command` of a system whose
spec has one (ToolRec's retrieval tools: its SASRec backbone, then each attribute encoder).
"""

from __future__ import annotations

import argparse
import asyncio
import re
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from macrs_sim.cli.parser import CliParser
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.cli_options import (
    cache_dir,
    common_flags,
    csv_list,
    overrides,
    progress_bars,
    split_of,
    with_seed,
)


def _models_check(args: argparse.Namespace) -> int:
    from macrs_sim.config import load_scenario

    scenario = load_scenario(args.scenario)  # before the model clients are imported

    from rich.console import Console

    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.llm.factory import preflight
    from macrs_sim.textsafe import terminal_line

    setup = CampaignSetup.from_scenario(scenario)
    for cfg in setup.model_configs():
        # print: a server's words are no markup; terminal_line: nor control codes
        asyncio.run(preflight(cfg, notify=lambda line: print(terminal_line(line))))
        Console().print(f"ok: {cfg.backend} model reachable")
    return 0


def _system_trainer(kind: str) -> Callable[..., Any] | None:
    from macrs_sim.agents.registry import import_ref, registered_specs

    for spec in registered_specs():
        if spec.kind == kind and spec.train_command is not None:
            return import_ref(spec.train_command, spec)
    return None


def _train(args: argparse.Namespace) -> int:
    trainer = _system_trainer(args.model)
    if trainer is not None:  # a system that trains its own models (its spec says how)
        return int(trainer(args, overrides(args.set, [args.model])[args.model]))
    from macrs_sim.data.splits import load_interactions
    from macrs_sim.rankers.train import check_kind, make_params, train_ranker

    kind = check_kind(args.model)
    params = make_params(kind, with_seed(kind, overrides(args.set, [kind])[kind], args.seed))
    data = load_interactions(args.dataset)
    split = split_of(args, data)
    with progress_bars(not args.no_progress) as factory:
        hook = factory(kind) if factory is not None else None
        trained = train_ranker(kind, data, split, params, cache_dir(args, data), hook)
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


def _eval_sequential(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from macrs_sim.data.splits import load_interactions
    from macrs_sim.rankers.sequential import evaluate_models, stopping_line, write_results
    from macrs_sim.rankers.train import check_kind, make_params

    kinds = [check_kind(k) for k in csv_list(args.models, "--models")]
    try:
        ks = sorted({int(k) for k in csv_list(args.k, "--k")})
    except ValueError:
        raise ConfigError(f"--k {args.k!r}: expected positive integers like 5,10,20") from None
    if ks[0] < 1:
        raise ConfigError(f"--k {args.k!r}: expected positive integers like 5,10,20")
    sets = overrides(args.set, kinds)
    params = {k: make_params(k, with_seed(k, sets[k], args.seed)) for k in kinds}
    data = load_interactions(args.dataset)
    with progress_bars(not args.no_progress) as factory:
        rows = evaluate_models(data, params, ks, cache_dir(args, data), factory)
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
    Console(markup=False, highlight=False).print(table)
    for line in filter(None, map(stopping_line, rows)):
        print(line)  # plain print: one unwrapped line whatever the terminal width
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def add_model_commands(sub: argparse._SubParsersAction[Any]) -> None:
    """`models check`, `models train` and the `eval` group."""
    models = sub.add_parser("models", help="model backends").add_subparsers(
        dest="models_cmd", required=True
    )
    check = models.add_parser("check", help="check that a scenario's models can be reached")
    check.add_argument("scenario")
    check.set_defaults(func=_models_check)
    train = models.add_parser("train", help="train an item ranker (cached beside the dataset)")
    train.add_argument(
        "model",
        help="a ranker (sasrec, itemcf, bpr, popularity, ...) or a system that trains its own",
    )
    train.add_argument("dataset", help="'demo' or a prepared database")
    train.add_argument(
        "--sample-set", help="a sample set: campaign split (its targets and later items hidden)"
    )
    common_flags(train)
    train.set_defaults(func=_train)
    sub.add_parser("eval", help="offline evaluation", fill=_fill_eval)


def _fill_eval(parser: CliParser) -> None:
    """`eval sequential`, then each registered system's own protocol (its spec's
    `eval_command`), added when `eval` is parsed: the registry is not loaded before."""
    from macrs_sim.agents.registry import import_ref, registered_specs

    ev = parser.add_subparsers(dest="eval_cmd", required=True)
    seq = ev.add_parser("sequential", help="leave-one-out, full ranking: HR@K, NDCG@K, MRR")
    seq.add_argument("dataset", help="'demo' or a prepared database")
    seq.add_argument("--models", default="popularity,itemcf,bpr,sasrec", help="comma list")
    seq.add_argument("--k", default="5,10,20", help="cut-offs for HR and NDCG (comma list)")
    seq.add_argument("--out", help="folder for results.csv and results.json")
    common_flags(seq)
    seq.set_defaults(func=_eval_sequential)
    for spec in registered_specs():
        if spec.eval_command is not None:
            _add_eval_command(ev, spec, import_ref)


def _add_eval_command(ev: Any, spec: Any, import_ref: Any) -> None:
    """`eval <kind>` of `spec`; an outside package's command that fails to load or to add
    itself is a stand-in that says so in one line, and costs no other command."""
    from macrs_sim.agents.registry import plugin_package

    try:
        import_ref(spec.eval_command, spec)(ev)
    except Exception as exc:
        package = plugin_package(spec.kind)
        if package is None:
            raise
        why = f"eval {spec.kind} of plugin {package} cannot be loaded ({type(exc).__name__}: {exc})"
        with suppress(Exception):  # the command may have added its parser before failing
            stub = ev.add_parser(spec.kind, help=f"(not loaded: {package})")
            stub.add_argument("rest", nargs=argparse.REMAINDER)
            stub.set_defaults(func=lambda _args: _refuse(why))


def _refuse(why: str) -> int:
    raise ConfigError(" ".join(why.split()))
