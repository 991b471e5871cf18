"""`eval interecagent one-turn`: one-turn retrieval (Recall@k) or ranking (NDCG@k), and
the settings both it and `requests` take from the flags (or a request set)."""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.cli_common import DEFAULT_K, calls_line, print_frame

if TYPE_CHECKING:
    from macrs_sim.evaluation.interecagent.request_set import RequestSet
    from macrs_sim.evaluation.interecagent.run import OneTurnInputs, OneTurnResult, OneTurnSettings
    from macrs_sim.evaluation.interecagent.setup import ModelChoice
    from macrs_sim.llm.accounting import CallLog


def one_turn_settings(
    args: argparse.Namespace, request_set: RequestSet | None = None
) -> OneTurnSettings:
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
        chatrec_ranker=getattr(args, "chatrec_ranker", "conversation"),
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
    from macrs_sim.evaluation.interecagent.run import open_inputs, run_one_turn
    from macrs_sim.evaluation.interecagent.setup import choose, one_turn_client

    if args.scenario and args.backend:
        raise ConfigError("--scenario and --backend: give one (the scenario names its model)")
    choice = choose(load_scenario(args.scenario) if args.scenario else None,
                    args.backend or "embedded")  # fmt: skip
    # Opened before the model: the scripted rules speak the dataset's domain.
    inputs = loaded[0] if loaded else open_inputs(settings.dataset)
    client = await one_turn_client(choice, settings.task, settings.k, log, inputs.dataset.domain)
    quiet = args.no_progress
    try:
        result = await run_one_turn(
            settings, client, choice.options, prompts=choice.prompts,
            cache_dir=Path(args.cache_dir) if args.cache_dir else None,
            on_step=None if quiet else lambda line: print(line + " ...", file=sys.stderr),
            inputs=inputs, request_set=loaded[1] if loaded else None,
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


def one_turn_command(args: argparse.Namespace) -> int:
    from macrs_sim.evaluation.interecagent.output import write_one_turn

    loaded = _read_requests(args)
    settings = one_turn_settings(args, loaded[1] if loaded else None)
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
    print(calls_line(log))
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
