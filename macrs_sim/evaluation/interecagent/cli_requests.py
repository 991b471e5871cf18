"""`eval interecagent requests`: one-turn requests written once, for every brain."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.cli_common import calls_line
from macrs_sim.evaluation.interecagent.cli_one_turn import one_turn_settings

if TYPE_CHECKING:
    from macrs_sim.evaluation.interecagent.request_set import RequestSetHeader
    from macrs_sim.evaluation.interecagent.run import OneTurnSettings
    from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, OneTurnRequest
    from macrs_sim.evaluation.interecagent.setup import ModelChoice
    from macrs_sim.llm.accounting import CallLog


def requests_command(args: argparse.Namespace) -> int:
    from macrs_sim.evaluation.interecagent.request_set import write_request_set
    from macrs_sim.evaluation.interecagent.setup import generator_choice
    from macrs_sim.llm.accounting import CallLog

    settings = one_turn_settings(args)
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
    print(calls_line(log))
    print(f"wrote {out} (sha256 {sha256})")
    return 0


async def _requests_async(
    args: argparse.Namespace, settings: OneTurnSettings, choice: ModelChoice, log: CallLog
) -> tuple[RequestSetHeader, list[OneTurnCase], list[OneTurnRequest]]:
    from macrs_sim.evaluation.interecagent import run
    from macrs_sim.evaluation.interecagent.setup import generator_of, one_turn_client

    inputs = run.open_inputs(settings.dataset)
    cases = run.draw(settings, inputs)  # a setting the data cannot meet fails first
    client = await one_turn_client(choice, settings.task, settings.k, log, inputs.dataset.domain)
    if not args.no_progress:
        print(f"writing {settings.n} {settings.task} requests ...", file=sys.stderr)
    try:
        prompts = choice.prompts.for_domain(inputs.dataset.domain)
        requests = await run.generate_requests(settings, client, prompts,
                                               inputs.dataset.catalog, cases,
                                               retries=choice.options.retries)  # fmt: skip
    finally:
        await client.close()
    header = run.request_set_header(settings, inputs, generator_of(choice), requests)
    return header, cases, requests
