"""One dialogue job, the same wherever an executor runs it (this process or a Ray actor)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from macrs_sim.agents.base import Recommender
from macrs_sim.campaign.dialogue import describe_error, run_dialogue
from macrs_sim.campaign.executor import DialogueJob, OnDone, Unfinished
from macrs_sim.campaign.outage import is_outage
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.protocol import (
    DialogueResult,
    DialogueState,
    ItemRef,
    LLMCallRecord,
    SystemTurn,
    ToolCallRecord,
    UserTurn,
)
from macrs_sim.simulators.base import UserSimulator

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


class _Watch:
    """The last error the system or simulator raised: `run_dialogue` keeps only its text."""

    def __init__(self) -> None:
        self.last: BaseException | None = None


class _WatchedSystem:
    def __init__(self, inner: Recommender, watch: _Watch) -> None:
        self.inner, self.watch, self.name = inner, watch, inner.name

    async def respond(self, state: DialogueState) -> SystemTurn:
        try:
            return await self.inner.respond(state)
        except Exception as err:
            self.watch.last = err
            raise

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        try:
            return await self.inner.final_list(state, k, given)
        except Exception as err:
            self.watch.last = err
            raise

    async def close(self) -> None:
        await self.inner.close()


class _WatchedSimulator:
    def __init__(self, inner: UserSimulator, watch: _Watch) -> None:
        self.inner, self.watch = inner, watch

    async def open(self) -> UserTurn:
        return await self.inner.open()  # outside run_dialogue's guard: it raises as is

    async def reply(self, turn: SystemTurn) -> UserTurn:
        try:
            return await self.inner.reply(turn)
        except Exception as err:
            self.watch.last = err
            raise


async def run_job(setup: CampaignSetup, job: DialogueJob) -> DialogueResult | Unfinished:
    """A fresh system and simulator for the job, then the dialogue; `Unfinished` when an
    endpoint outage cut it short. Raises only for faults before the dialogue starts."""
    cfg = next(s for s in setup.scenario.systems if s.name == job.system)
    system = setup.build_system(cfg, job.dialogue_id, job.sample)
    try:
        simulator = setup.build_simulator(job.sample, job.dialogue_id, cfg.name)
    except Exception:
        await system.close()  # run_dialogue, which would close it, never starts
        raise
    watch = _Watch()
    result = await run_dialogue(
        _WatchedSystem(system, watch),
        _WatchedSimulator(simulator, watch),
        setup.grounder,
        dialogue_id=job.dialogue_id,
        sample=job.sample,
        protocol=setup.scenario.protocol,
    )
    if result.status == "error" and watch.last is not None and is_outage(watch.last):
        return Unfinished(job.dialogue_id, job.system, result.error or "")
    return result


async def attempt_job(setup: CampaignSetup, job: DialogueJob) -> DialogueResult | Unfinished:
    """`run_job`, with a fault before the dialogue starts costing this dialogue only."""
    try:
        return await run_job(setup, job)
    except Exception as err:  # e.g. the simulator's opening, building the system
        if is_outage(err):
            return Unfinished(job.dialogue_id, job.system, describe_error(err))
        return error_result(job, setup.scenario.protocol.max_turns, err)


def deliver(
    on_done: OnDone,
    job: DialogueJob,
    max_turns: int,
    result: DialogueResult | Unfinished,
    calls: list[LLMCallRecord],
    tool_calls: list[ToolCallRecord],
) -> None:
    """Hand a result to the driver; one the store cannot take is stored as an error instead."""
    try:
        on_done(result, calls, tool_calls)
    except Exception as err:  # e.g. a result the store cannot serialize
        if isinstance(result, Unfinished):
            log.warning("calls of %s not stored: %s", job.dialogue_id, describe_error(err))
            return
        try:
            on_done(error_result(job, max_turns, err), calls, tool_calls)
        except Exception as again:
            # Left unstored: the next run of the same command does it again.
            log.warning("dialogue %s not stored: %s", job.dialogue_id, describe_error(again))
