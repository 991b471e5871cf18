"""The judge phase of a campaign (paper Table 2), with the campaign's clients and accounting."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.judge import JudgeRecord, judge_run


async def judge_campaign(
    setup: CampaignSetup, run_dir: Path, *, max_pairs: int | None = None
) -> list[JudgeRecord]:
    """Each MACRS turn with a strategy suggestion against the same turn without it.

    Each system's own model rewrites its replies (at the run's temperature); the
    judge model only judges. Already-judged pairs are skipped, so this resumes.
    """
    sc = setup.scenario
    return await judge_run(
        run_dir,
        setup.client(sc.judge_model()),
        setup.prompts,
        concurrency=sc.campaign.concurrency,
        max_pairs=max_pairs if max_pairs is not None else sc.judge.max_pairs,
        retries=sc.protocol.max_structured_retries,
        regenerate_clients={s.name: setup.client(sc.system_model(s)) for s in sc.systems},
        call_log=setup.log,
    )
