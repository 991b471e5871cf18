"""`macrs-sim eval interecagent session|requests|one-turn|demos`: InteRecAgent's own protocols
(paper §4.1), the request sets that give every brain the same one-turn requests, and the
generated demonstrations (paper §3.3)."""

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

    from macrs_sim.agents.interecagent.demos import Demonstration
    from macrs_sim.evaluation.interecagent.demo_gen import DemoCandidate
    from macrs_sim.evaluation.interecagent.request_set import RequestSet, RequestSetHeader
    from macrs_sim.evaluation.interecagent.run import OneTurnInputs, OneTurnResult, OneTurnSettings
    from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, OneTurnRequest
    from macrs_sim.evaluation.interecagent.setup import ModelChoice
    from macrs_sim.llm.accounting import CallLog

console = Console(markup=False, highlight=False)
DEFAULT_K = {"retrieval": 5, "ranking": 20}  # the paper's Recall@5 and NDCG@20
RANKERS = ["popularity", "itemcf", "bpr", "sasrec", "bert4rec"]  # rankers.train.MODEL_KINDS
# `demos --count`: requests per strategy (output-first: per plan shape); issue 27's bound.
MAX_DEMO_COUNT = 10_000


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
    from macrs_sim.evaluation.interecagent.session import (
        items_line,
        run_notes,
        run_session_metrics,
        session_title,
    )

    ks = _ks(args.k)
    target, code = Path(args.run), 0
    if target.suffix == ".toml":
        ran = _run_scenario(args, ks)
        if ran is None:
            return 130
        target, code = ran
    run = load_run(target)
    frame = run_session_metrics(run, ks)
    print_frame(frame, session_title(run))
    for line in [*run_notes(run), items_line(run)]:
        print(line)
    return code


def _run_scenario(args: argparse.Namespace, ks: list[int]) -> tuple[Path, int] | None:
    """Run the scenario as this protocol does (the paper's items a turn, said first), like
    `macrs-sim run` (resumed if unfinished); the run's directory and the exit code (None:
    interrupted, the same command resumes it)."""
    from macrs_sim.campaign.runner import CampaignInterrupted, run_campaign_async
    from macrs_sim.config import load_scenario
    from macrs_sim.evaluation.interecagent.session import (
        check_ks,
        paper_protocol,
        paper_sampling,
    )

    scenario, line = paper_protocol(load_scenario(args.run))
    scenario, target_line = paper_sampling(scenario)
    check_ks(ks, scenario.protocol.max_turns)
    print(line)
    print(target_line)
    output = Path(args.output_dir) if args.output_dir else None
    if output is not None and output.exists() and not output.is_dir():
        raise ConfigError(f"--output-dir {output}: not a folder (expected where runs go)")
    try:
        result = asyncio.run(run_campaign_async(
            scenario, output_dir=output, progress=not args.no_progress,
            notify=lambda news: print(news, file=sys.stderr),
        ))  # fmt: skip
    except CampaignInterrupted as stop:
        print(stop, file=sys.stderr)
        return None
    print(f"run directory: {result.run_dir}")
    if result.status != "finished":
        print(f"{result.status}: {result.stored} of {result.expected} dialogues stored; the"
              " same command continues the run")  # fmt: skip
        return result.run_dir, 3
    return result.run_dir, 0


def _settings(args: argparse.Namespace, request_set: RequestSet | None = None) -> OneTurnSettings:
    """The settings from the flags; with a request set, what it was made with fills the
    flags left out (a flag that differs from it is refused by `check_request_set`)."""
    from macrs_sim.evaluation.interecagent.models import check_baselines
    from macrs_sim.evaluation.interecagent.run import OneTurnSettings, check_settings

    h = request_set.header if request_set is not None else None
    task = args.task or (h.task if h else None)
    if task is None:
        hint = " (or --requests FILE: its request set names it)" if "requests" in args else ""
        raise ConfigError(f"--task: expected retrieval or ranking{hint}")
    names = [t.strip() for t in getattr(args, "baselines", "none").split(",") if t.strip()]
    settings = OneTurnSettings(
        dataset=args.dataset,
        task=task,
        n=_given(args.n, h.n if h else 100),
        k=_given(args.k, h.k if h else DEFAULT_K[task]),
        seed=_given(args.seed, h.seed if h else 0),
        history_len=_given(args.history_len, h.history_len if h else 20),
        baselines=tuple(check_baselines([] if names == ["none"] else names)),
        concurrency=args.concurrency,
        llm_rows=_llm_rows(getattr(args, "llm_rows", "none")),
        chatrec_ranker=getattr(args, "chatrec_ranker", "sasrec"),
    )
    check_settings(settings)
    return settings


def _llm_rows(text: str) -> tuple[str, ...]:
    from macrs_sim.evaluation.interecagent.llm_rows import LLM_ROWS

    names = [t.strip() for t in text.split(",") if t.strip()]
    if names == ["none"]:
        return ()
    for name in names:
        if name not in LLM_ROWS:
            raise ConfigError(
                f"--llm-rows: unknown row {name!r}; expected llm-only, chat-rec or none"
            )
    return tuple(dict.fromkeys(names))


def _given(value: int | None, otherwise: int) -> int:
    return otherwise if value is None else value


async def _one_turn_async(
    args: argparse.Namespace,
    settings: OneTurnSettings,
    log: CallLog,
    loaded: tuple[OneTurnInputs, RequestSet] | None,
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
            inputs=loaded[0] if loaded else None, request_set=loaded[1] if loaded else None,
        )  # fmt: skip
    finally:
        await client.close()
    return choice, result


def _read_requests(args: argparse.Namespace) -> tuple[OneTurnInputs, RequestSet] | None:
    """The dataset and the request set of --requests (checked against it), if given."""
    if not args.requests:
        return None
    from macrs_sim.evaluation.interecagent.request_set import read_request_set
    from macrs_sim.evaluation.interecagent.run import open_inputs

    inputs = open_inputs(args.dataset)
    return inputs, read_request_set(Path(args.requests), inputs.dataset.catalog, inputs.identity)


def _one_turn(args: argparse.Namespace) -> int:
    from macrs_sim.evaluation.interecagent.output import write_one_turn

    loaded = _read_requests(args)
    settings = _settings(args, loaded[1] if loaded else None)
    if args.out and Path(args.out).exists() and not Path(args.out).is_dir():
        raise ConfigError(f"--out {args.out}: not a folder (expected where the results go)")
    from macrs_sim.llm.accounting import CallLog

    log = CallLog()
    choice, result = asyncio.run(_one_turn_async(args, settings, log, loaded))
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", result.dataset_name).strip("-") or "dataset"
    out = Path(args.out or f"reports/interecagent-one-turn-{settings.task}-{slug}")
    paths = write_one_turn(out, result)
    usable = len(result.cases) - result.failed_requests
    title = (
        f"{result.dataset_name}: one-turn {settings.task}, {usable} of {len(result.cases)} "
        f"generated requests, seed {settings.seed} (model: {choice.source})"
    )
    print_frame(result.summary, title)
    print(_requests_line(result, choice.source))
    print(_calls_line(log))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _requests_line(result: OneTurnResult, under_test: str) -> str:
    s = result.source
    if s.path is None:
        return (
            f"requests: written by the model under test ({under_test}), not a shared request"
            " set: brains evaluated this way answer different questions (write one with"
            " `macrs-sim eval interecagent requests`, give it as --requests)"
        )
    return f"requests: {s.path} (sha256 {s.sha256}), written by {s.generator}"


def _requests(args: argparse.Namespace) -> int:
    from macrs_sim.evaluation.interecagent.request_set import write_request_set
    from macrs_sim.evaluation.interecagent.setup import generator_choice
    from macrs_sim.llm.accounting import CallLog

    settings = _settings(args)
    out = Path(args.out)
    if out.is_dir():
        raise ConfigError(f"--out {out}: a folder; expected the request set's file name")
    choice = generator_choice(args.generator_model)
    log = CallLog()
    header, cases, requests = asyncio.run(_requests_async(args, settings, choice, log))
    sha256 = write_request_set(out, header, cases, requests)
    print(
        f"{header.dataset}: {header.n - header.failed} of {header.n} {header.task} requests,"
        f" seed {header.seed}, k {header.k}, written by {header.generator}"
        f" (--generator-model {args.generator_model})"
    )
    if header.failed:
        print(f"{header.failed} failed: kept with their error; every brain leaves them out")
    print(_calls_line(log))
    print(f"wrote {out} (sha256 {sha256})")
    return 0


async def _requests_async(
    args: argparse.Namespace, settings: OneTurnSettings, choice: ModelChoice, log: CallLog
) -> tuple[RequestSetHeader, list[OneTurnCase], list[OneTurnRequest]]:
    from macrs_sim.evaluation.interecagent import run
    from macrs_sim.evaluation.interecagent.setup import generator_of, one_turn_client

    inputs = run.open_inputs(settings.dataset)
    cases = run.draw(settings, inputs)  # a setting the data cannot meet fails first
    client = await one_turn_client(choice, settings.task, settings.k, log)
    if not args.no_progress:
        print(f"writing {settings.n} {settings.task} requests ...", file=sys.stderr)
    try:
        requests = await run.generate_requests(settings, client, choice.prompts,
                                               inputs.dataset.catalog, cases,
                                               retries=choice.options.retries)  # fmt: skip
    finally:
        await client.close()
    header = run.request_set_header(settings, inputs, generator_of(choice), requests)
    return header, cases, requests


def _demos(args: argparse.Namespace) -> int:
    from macrs_sim.agents.interecagent.demos import load_seed_demonstrations
    from macrs_sim.evaluation.interecagent.demo_output import summary_line, write_demo_file
    from macrs_sim.llm.accounting import CallLog

    if not 1 <= args.count <= MAX_DEMO_COUNT:
        raise ConfigError(
            f"--count {args.count}: expected a positive number of requests,"
            f" at most {MAX_DEMO_COUNT}"
        )
    out = Path(args.out)
    if out.is_dir():
        raise ConfigError(f"--out {out}: a folder; expected the demonstration file's name")
    seeds = load_seed_demonstrations()
    log = CallLog()
    source, found = asyncio.run(_demos_async(args, tuple(seeds), log))
    paths = write_demo_file(out, seeds, found)
    kept = sum(1 for c in found if c.kept)
    print(f"{len(seeds)} seeds + {kept} generated demonstrations (model: {source})")
    for mode in ("input-first", "output-first"):
        line = summary_line(mode, found)
        if line:
            print(line)
    print(_calls_line(log))
    print("wrote " + ", ".join(str(p) for p in paths))
    print(f'use it: demonstrations_file = "{out}" in an interecagent [[systems]] entry')
    return 0


async def _demos_async(
    args: argparse.Namespace, seeds: tuple[Demonstration, ...], log: CallLog
) -> tuple[str, list[DemoCandidate]]:
    from macrs_sim.config import load_scenario
    from macrs_sim.evaluation.interecagent.demo_gen import Generation, generate
    from macrs_sim.evaluation.interecagent.demo_prompts import DemoPrompts
    from macrs_sim.evaluation.interecagent.setup import choose, demo_client

    if args.scenario and args.backend:
        raise ConfigError("--scenario and --backend: give one (the scenario names its model)")
    choice = choose(load_scenario(args.scenario) if args.scenario else None,
                    args.backend or "embedded")  # fmt: skip
    client = await demo_client(choice, log)
    modes = ["input-first", "output-first"] if args.mode == "both" else [args.mode]
    if not args.no_progress:
        print(f"writing demonstrations ({', '.join(modes)}) ...", file=sys.stderr)
    gen = Generation(client, DemoPrompts.load(choice.prompts), seeds, args.count,
                     retries=choice.options.retries)  # fmt: skip
    try:
        found = await generate(gen, modes)  # type: ignore[arg-type]
    finally:
        await client.close()
    return choice.source, found


def _calls_line(log: CallLog) -> str:
    calls = log.all()
    by_role = Counter(c.role for c in calls)
    tokens = sum(c.prompt_tokens + c.completion_tokens for c in calls)
    roles = ", ".join(f"{role} {n}" for role, n in by_role.items())
    return f"model calls: {len(calls)} ({roles or 'none'}), {tokens} tokens"


def _case_flags(parser: argparse.ArgumentParser) -> None:
    """The flags that choose the cases: the same for `requests` and `one-turn`."""
    parser.add_argument("dataset", help="'demo' or a prepared database")
    parser.add_argument("--task", choices=["retrieval", "ranking"],
                        help="retrieval (Recall@k) or ranking (NDCG@k)")  # fmt: skip
    parser.add_argument("--n", type=int, help="test users drawn (default 100)")
    parser.add_argument("--k", type=int, help="items retrieved (default 5) or candidates (20)")
    parser.add_argument("--seed", type=int, help="draws of users and negatives (default 0)")
    parser.add_argument("--history-len", type=int, help="history items the user has (default 20)")
    parser.add_argument("--concurrency", type=int, default=4, help="cases in flight (default 4)")
    parser.add_argument("--no-progress", action="store_true", help="no progress lines")


def add_interecagent_eval(ev: argparse._SubParsersAction[Any]) -> None:
    """`eval interecagent session`, `requests`, `one-turn` and `demos`."""
    group = ev.add_parser("interecagent", help="InteRecAgent's protocols (its paper, §4.1)")
    sub = group.add_subparsers(dest="interecagent_cmd", required=True)
    session = sub.add_parser("session", help="Hit@k and AT@k of a run's dialogues")
    what = (
        "a run directory, or a scenario file (.toml) to run first with InteRecAgent's items a turn"
    )
    session.add_argument("run", help=what)
    session.add_argument("--k", default="5", help="turn cut-offs, e.g. 5 or 1,3,5 (default 5)")
    session.add_argument("--output-dir", help="where a scenario's run goes (default: its own)")
    session.add_argument("--no-progress", action="store_true", help="no progress bars")
    session.set_defaults(func=_session)
    requests = sub.add_parser("requests", help="write one-turn requests once, for every brain")
    _case_flags(requests)
    requests.add_argument("--out", required=True, help="the request set's file (JSON lines)")
    requests.add_argument("--generator-model", default="embedded",
                          help="the model that writes them: scripted, embedded (default), or a"
                               " scenario file (its user model)")  # fmt: skip
    requests.set_defaults(func=_requests)
    one = sub.add_parser("one-turn", help="one-turn retrieval (Recall@k) or ranking (NDCG@k)")
    _case_flags(one)
    what = "a request set (`eval interecagent requests`) whose requests every brain answers"
    one.add_argument("--requests", help=what + " (default: the model under test writes them)")
    one.add_argument("--baselines", default="popularity,sasrec",
                     help="reference rankers on the same cases: random, popularity, itemcf, "
                          "bpr, sasrec, or none")  # fmt: skip
    one.add_argument("--llm-rows", default="llm-only,chat-rec",
                     help="Table 5's LLM rows on the model under test: llm-only (no tools),"
                          " chat-rec (retrieval only), or none")  # fmt: skip
    one.add_argument("--chatrec-ranker", default="sasrec", choices=RANKERS,
                     help="the recommender Chat-Rec takes its 20 candidates from")  # fmt: skip
    one.add_argument("--backend", choices=["embedded", "scripted"],
                     help="the model without a scenario (default embedded)")  # fmt: skip
    one.add_argument("--scenario", help="take the model and InteRecAgent's options from it")
    one.add_argument("--out", help="folder for the results (default reports/interecagent-...)")
    one.add_argument("--cache-dir", help="model checkpoints (default: beside the dataset)")
    one.set_defaults(func=_one_turn)
    _add_demos(sub)


def _add_demos(sub: argparse._SubParsersAction[Any]) -> None:
    demos = sub.add_parser("demos", help="generate demonstrations from the seeds (paper §3.3)")
    demos.add_argument("--out", required=True, help="the demonstration file to write (JSON)")
    demos.add_argument("--count", type=int, default=5,
                       help="requests written at a time: input-first in all, output-first per"
                            f" plan shape (default 5, at most {MAX_DEMO_COUNT})")  # fmt: skip
    demos.add_argument("--mode", choices=["both", "input-first", "output-first"], default="both",
                       help="the paper's strategies (default both)")  # fmt: skip
    demos.add_argument("--backend", choices=["embedded", "scripted"],
                       help="the model without a scenario (default embedded)")  # fmt: skip
    demos.add_argument("--scenario", help="take the model from it (its interecagent system)")
    demos.add_argument("--no-progress", action="store_true", help="no progress lines")
    demos.set_defaults(func=_demos)
