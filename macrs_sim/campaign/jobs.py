"""One dialogue job, the same wherever an executor runs it (this process or a Ray actor)."""

from __future__ import annotations

import logging

from macrs_sim.campaign.dialogue import describe_error, run_dialogue
from macrs_sim.campaign.executor import DialogueJob, OnDone
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.protocol import DialogueResult, LLMCallRecord, UserTurn

log = logging.getLogger(__name__)


def error_result(job: DialogueJob, max_turns: int, err: BaseException | str) -> DialogueResult:
    """A dialogue that failed outside `run_dialogue`, recorded with its cause."""
    return DialogueResult(
        dialogue_id=job.dialogue_id,
        system=job.system,
        sample_id=job.sample.sample_id,
        target_id=job.sample.target_id,
        status="error",
        max_turns=max_turns,
        opening=UserTurn(text=job.sample.opening),
        error=err if isinstance(err, str) else describe_error(err),
    )


async def run_job(setup: CampaignSetup, job: DialogueJob) -> DialogueResult:
    """A fresh system and simulator for the job, then the dialogue. Raises only for faults
    before the dialogue starts (building the system or simulator)."""
    cfg = next(s for s in setup.scenario.systems if s.name == job.system)
    system = setup.build_system(cfg, job.dialogue_id, job.sample)
    try:
        simulator = setup.build_simulator(job.sample, job.dialogue_id, cfg.name)
    except Exception:
        await system.close()  # run_dialogue, which would close it, never starts
        raise
    return await run_dialogue(
        system,
        simulator,
        setup.grounder,
        dialogue_id=job.dialogue_id,
        sample=job.sample,
        protocol=setup.scenario.protocol,
    )


def deliver(
    on_done: OnDone,
    job: DialogueJob,
    max_turns: int,
    result: DialogueResult,
    calls: list[LLMCallRecord],
) -> None:
    """Hand a result to the driver; one the store cannot take is stored as an error instead."""
    try:
        on_done(result, calls)
    except Exception as err:  # e.g. a result the store cannot serialize
        try:
            on_done(error_result(job, max_turns, err), calls)
        except Exception as again:
            # Left unstored: the next run of the same command does it again.
            log.warning("dialogue %s not stored: %s", job.dialogue_id, describe_error(again))
