"""`macrs-sim eval recmind TASK DATASET`: RecMind's own offline tasks (paper §4, Table 10)."""

from __future__ import annotations

import argparse
import asyncio
import math
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from macrs_sim.errors import ConfigError

# Settings field -> the option that sets it (for one-line errors).
OPTION = {"solvers": "--solver", "ks": "--k", "history_len": "--history", "top_n": "--top-n",
          "max_steps": "--max-steps", "recmind": "--set"}  # fmt: skip
# (header, results key, format) of the cost columns: the paper's Table 10 and more.
COST_COLUMNS = (("unparsable", "unparsable", "d"), ("errors", "errors", "d"),
                ("unmatched", "unmatched", "d"),
                ("s/question", "seconds_per_question", ".4f"),
                ("calls/q", "llm_calls_per_question", ".1f"),
                ("tokens/q", "tokens_per_question", ".0f"))  # fmt: skip


def _list(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _models(spec: str) -> tuple[Any, Any]:
    """(solver model, judge model) from "scripted", "embedded" or a scenario file."""
    from macrs_sim.config import EmbeddedModel, ScriptedModel, load_scenario

    if spec in ("scripted", "embedded"):
        model = ScriptedModel() if spec == "scripted" else EmbeddedModel()
        return model, model
    if not spec.endswith(".toml"):
        raise ConfigError(
            f"--model {spec!r}: expected scripted, embedded or a scenario file (.toml)"
        )
    scenario = load_scenario(spec)
    return scenario.model, scenario.judge_model()


def _set(pairs: list[str]) -> dict[str, str | None]:
    """`--set key=value` pairs ("none" or "null" for no value); later ones win."""
    out: dict[str, str | None] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--set {pair!r}: expected KEY=VALUE, e.g. tot_breadth=5")
        value = value.strip()
        out[key.strip()] = None if value.casefold() in ("none", "null") else value
    return out


def _ks(text: str) -> list[int]:
    try:
        return [int(k) for k in _list(text)]
    except ValueError:
        raise ConfigError(f"--k {text!r}: expected positive integers like 5,10") from None


def _settings(args: argparse.Namespace) -> Any:
    from macrs_sim.evaluation.recmind.settings import EvalSettings

    model, judge = _models(args.model)
    fields = {"task": args.task, "dataset": args.dataset, "solvers": _list(args.solver),
              "prompting": _list(args.prompting), "users": args.users,
              "candidates": args.candidates, "top_n": args.top_n, "ks": _ks(args.k),
              "history_len": args.history, "shots": args.shots, "max_steps": args.max_steps,
              "recmind": _set(args.set), "seed": args.seed, "concurrency": args.concurrency,
              "temperature": args.temperature, "model": model, "judge_model": judge}  # fmt: skip
    try:
        return EvalSettings.model_validate(fields)
    except ValidationError as err:
        first = err.errors()[0]
        name = str(first["loc"][0]) if first["loc"] else "settings"
        option = OPTION.get(name, "--" + name.replace("_", "-"))
        raise ConfigError(f"{option}: {first['msg'].removeprefix('Value error, ')}") from None


def _cell(value: Any, fmt: str) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "-"
    return format(value, fmt)


def _print_table(result: Any) -> None:
    rows = [r.flat() for r in result.rows]
    for r in rows:
        r["tokens_per_question"] = (
            r["prompt_tokens_per_question"] + r["completion_tokens_per_question"]
        )
    metrics = list(result.rows[0].metrics)
    title = (f"{result.data.dataset_name}: RecMind task {result.settings.task}, "
             f"{result.rows[0].n} users, seed {result.settings.seed}")  # fmt: skip
    table = Table(title=title, box=None, pad_edge=False)
    columns = [("solver", "solver", "s"), ("prompting", "prompting", "s"),
               *((m, m, ".4f") for m in metrics), *COST_COLUMNS]  # fmt: skip
    for header, _, _ in columns:
        table.add_column(header, justify="left" if header in ("solver", "prompting") else "right",
                         no_wrap=True)  # fmt: skip
    for r in rows:
        table.add_row(*(_cell(r[key], fmt) for _, key, fmt in columns))
    # Wide enough for every column whatever the terminal or pipe: a number is never cut
    # (the table is only as wide as its cells; a narrow terminal wraps the lines).
    width = max(Console().width, 200)
    Console(markup=False, highlight=False, width=width).print(table)


@contextmanager
def _progress(enabled: bool) -> Iterator[Callable[[int], Callable[[], None]] | None]:
    """One bar over every question of every run, on a terminal's stderr (None otherwise).

    It appears when the first question is asked, so an error before that is one line."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    columns = (TextColumn("questions"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    bars = Progress(*columns, console=Console(stderr=True), transient=True)

    def start(total: int) -> Callable[[], None]:
        bars.start()
        task = bars.add_task("questions", total=total)
        return lambda: bars.advance(task)

    try:
        yield start
    finally:
        bars.stop()


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr)


def _eval_recmind(args: argparse.Namespace) -> int:
    from macrs_sim.evaluation.recmind.evaluate import evaluate

    settings = _settings(args)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(args.dataset).stem).strip("-") or "dataset"
    out = Path(args.out or f"reports/recmind-{settings.task}-{slug}")
    with _progress(not args.no_progress) as progress:
        result = asyncio.run(evaluate(settings, out, _to_stderr, progress))
    _print_table(result)
    print("wrote " + ", ".join(str(p) for p in result.files))
    return 0


def add_recmind_eval(ev: argparse._SubParsersAction[Any]) -> None:
    """`eval recmind` (in the `eval` group of the command line)."""
    from macrs_sim.evaluation.recmind.tasks import TASKS

    p = ev.add_parser(
        "recmind", help="RecMind's tasks: rating, direct, sequential, explanation, summary"
    )
    p.add_argument("task", choices=TASKS, help="which task (paper §4)")
    p.add_argument(
        "dataset",
        help="'demo' or a prepared database (rating needs ratings, "
        "summary review text: data prepare amazon ... --keep-text)",
    )
    p.add_argument("--solver", default="direct", help="comma list: direct, recmind-cot, "
                   "recmind-tot-bfs, recmind-tot-dfs, recmind-si; for direct and sequential "
                   "also trained rankers: ranker-popularity, ranker-itemcf, ranker-bpr, "
                   "ranker-sasrec, ranker-bert4rec (default: direct)")  # fmt: skip
    p.add_argument("--prompting", default="zero-shot,few-shot", help="comma list")
    p.add_argument("--model", default="embedded", help="scripted, embedded or a scenario file")
    p.add_argument("--users", type=int, default=100, help="test users sampled (default 100)")
    p.add_argument("--candidates", type=int, default=100, help="candidate list size (default 100)")
    p.add_argument("--top-n", type=int, default=10, help="items a ranking answer asks for")
    p.add_argument("--k", default="5,10", help="cut-offs for HR and NDCG (comma list)")
    p.add_argument("--history", type=int, default=20, help="history items a question shows")
    p.add_argument("--shots", type=int, default=3, help="examples in few-shot prompts")
    p.add_argument("--max-steps", type=int, default=6, help="RecMind's step limit")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a RecMind planner option (repeatable): tot_breadth, tot_votes, "
                   "vote_temperature, si_max_paths, the tool switches, ...")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="users and candidates (default 0)")
    p.add_argument("--concurrency", type=int, default=1, help="questions in flight")
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature")
    p.add_argument("--out", help="folder for results.csv/.json, answers.jsonl, settings.json")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_eval_recmind)
