"""`macrs-sim eval interecagent session|one-turn`: InteRecAgent's own protocols (paper §4.1)."""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table

from macrs_sim.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

    from macrs_sim.evaluation.interecagent.run import OneTurnResult, OneTurnSettings
    from macrs_sim.evaluation.interecagent.setup import ModelChoice
    from macrs_sim.llm.accounting import CallLog

console = Console(markup=False, highlight=False)
DEFAULT_K = {"retrieval": 5, "ranking": 20}  # the paper's Recall@5 and NDCG@20


def _ks(text: str) -> list[int]:
    try:
        return [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ConfigError(f"--k {text!r}: expected positive integers like 1,3,5") from None


def print_frame(frame: pd.DataFrame, title: str) -> None:
    print(title)  # plain: one unwrapped line whatever the terminal width
    table = Table(box=None, pad_edge=False)
    for col in frame.columns:
        table.add_column(str(col), justify="left" if col == "system" else "right", no_wrap=True)
    for row in frame.itertuples(index=False):
        cells = [f"{v:.3f}" if isinstance(v, float) else str(v) for v in row]
        table.add_row(*cells)
    console.print(table)


def _session(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.runs.load import load_run
    from macrs_sim.evaluation.interecagent.session import run_notes, run_session_metrics

    run = load_run(args.run)
    frame = run_session_metrics(run, _ks(args.k))
    print_frame(frame, f"{run.name}: session-wise Hit@k and AT@k (a failure counts k + 1)")
    for line in run_notes(run):
        print(line)
    return 0


def _settings(args: argparse.Namespace) -> OneTurnSettings:
    from macrs_sim.evaluation.interecagent.models import check_baselines
    from macrs_sim.evaluation.interecagent.run import OneTurnSettings, check_settings

    names = [t.strip() for t in args.baselines.split(",") if t.strip()]
    k = DEFAULT_K[args.task] if args.k is None else args.k
    settings = OneTurnSettings(
        dataset=args.dataset,
        task=args.task,
        n=args.n,
        k=k,
        seed=args.seed,
        history_len=args.history_len,
        baselines=tuple(check_baselines([] if names == ["none"] else names)),
        concurrency=args.concurrency,
    )
    check_settings(settings)
    return settings


async def _one_turn_async(
    args: argparse.Namespace, settings: OneTurnSettings, log: CallLog
) -> tuple[ModelChoice, OneTurnResult]:
    from macrs_sim.config import load_scenario
    from macrs_sim.evaluation.interecagent.run import run_one_turn
    from macrs_sim.evaluation.interecagent.setup import choose, one_turn_client

    if args.scenario and args.backend:
        raise ConfigError("--scenario and --backend: give one (the scenario names its model)")
    choice = choose(load_scenario(args.scenario) if args.scenario else None,
                    args.backend or "embedded")  # fmt: skip
    client = await one_turn_client(choice, settings.task, settings.k, log)
    quiet = args.no_progress
    try:
        result = await run_one_turn(
            settings, client, choice.options, prompts=choice.prompts,
            cache_dir=Path(args.cache_dir) if args.cache_dir else None,
            on_step=None if quiet else lambda line: print(line + " ...", file=sys.stderr),
        )  # fmt: skip
    finally:
        await client.close()
    return choice, result


def _one_turn(args: argparse.Namespace) -> int:
    from macrs_sim.evaluation.interecagent.output import write_one_turn

    settings = _settings(args)
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        raise ConfigError(f"--out {args.out}: not a folder (expected where the results go)")
    from macrs_sim.llm.accounting import CallLog

    log = CallLog()
    choice, result = asyncio.run(_one_turn_async(args, settings, log))
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", result.dataset_name).strip("-") or "dataset"
    out = Path(args.out or f"reports/interecagent-one-turn-{settings.task}-{slug}")
    paths = write_one_turn(out, result)
    usable = len(result.cases) - result.failed_requests
    title = (
        f"{result.dataset_name}: one-turn {settings.task}, {usable} of {len(result.cases)} "
        f"generated requests, seed {settings.seed} (model: {choice.source})"
    )
    print_frame(result.summary, title)
    print(_calls_line(log))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _calls_line(log: CallLog) -> str:
    calls = log.all()
    by_role = Counter(c.role for c in calls)
    tokens = sum(c.prompt_tokens + c.completion_tokens for c in calls)
    roles = ", ".join(f"{role} {n}" for role, n in by_role.items())
    return f"model calls: {len(calls)} ({roles or 'none'}), {tokens} tokens"


def add_interecagent_eval(ev: argparse._SubParsersAction[Any]) -> None:
    """`eval interecagent session` and `eval interecagent one-turn`."""
    group = ev.add_parser("interecagent", help="InteRecAgent's protocols (its paper, §4.1)")
    sub = group.add_subparsers(dest="interecagent_cmd", required=True)
    session = sub.add_parser("session", help="Hit@k and AT@k of a run's dialogues")
    session.add_argument("run", help="a run directory (scenarios/interecagent_session.toml)")
    session.add_argument("--k", default="5", help="turn cut-offs, e.g. 5 or 1,3,5 (default 5)")
    session.set_defaults(func=_session)
    one = sub.add_parser("one-turn", help="one-turn retrieval (Recall@k) or ranking (NDCG@k)")
    one.add_argument("dataset", help="'demo' or a prepared database")
    one.add_argument("--task", choices=["retrieval", "ranking"], required=True)
    one.add_argument("--n", type=int, default=100, help="test users drawn (default 100)")
    one.add_argument("--k", type=int, help="items retrieved (default 5) or candidates (20)")
    one.add_argument("--seed", type=int, default=0, help="draws of users and negatives")
    one.add_argument("--history-len", type=int, default=20, help="history items the user has")
    one.add_argument("--baselines", default="popularity,sasrec",
                     help="reference rankers on the same cases: random, popularity, itemcf, "
                          "bpr, sasrec, or none")  # fmt: skip
    one.add_argument("--backend", choices=["embedded", "scripted"],
                     help="the model without a scenario (default embedded)")  # fmt: skip
    one.add_argument("--scenario", help="take the model and InteRecAgent's options from it")
    one.add_argument("--concurrency", type=int, default=4, help="cases in flight (default 4)")
    one.add_argument("--out", help="folder for the results (default reports/interecagent-...)")
    one.add_argument("--cache-dir", help="model checkpoints (default: beside the dataset)")
    one.add_argument("--no-progress", action="store_true", help="no progress lines")
    one.set_defaults(func=_one_turn)
