"""The Ray executor: dialogues run in async Ray actors, results stream back to the driver.

Each actor builds its own `CampaignSetup` (clients, event loop) and keeps
`concurrency // actors` dialogues in flight. Jobs are handed out one at a time
rather than split into fixed shards: `should_stop` is then asked before every start
as in the local executor, a slow system cannot leave one actor busy while others
idle, and the driver knows which jobs a dead actor held. Only the driver calls
`on_done` (it owns the store), as each dialogue ends.

An actor that dies costs the dialogues it was running (error results naming the
cause: re-running them could kill another actor the same way); its unstarted jobs
go to the surviving actors. When every actor is dead, `run` raises.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator, Mapping
from typing import Any

from macrs_sim.campaign.dialogue import describe_error
from macrs_sim.campaign.executor import DialogueJob, Jobs, OnDone, ShouldStop, Unfinished
from macrs_sim.campaign.jobs import attempt_job, deliver, error_result
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario
from macrs_sim.errors import ConfigError, MacrsSimError
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import DialogueResult, LLMCallRecord, ToolCallRecord

try:
    import ray
    import ray.exceptions
except ImportError:  # the `ray` extra is optional
    ray = None  # type: ignore[assignment]

MISSING_RAY = "executor 'ray' needs the ray extra: pip install 'macrs-sim[ray]'"
Calls = list[LLMCallRecord]
ToolCalls = list[ToolCallRecord]
log = logging.getLogger(__name__)


class DialogueActor:
    """Runs in a Ray worker process; `ray.remote` is applied in `RayExecutor.run`."""

    def __init__(self, scenario: Scenario, scripted_rules: dict[str, Rule] | None) -> None:
        self.scenario = scenario
        self.scripted_rules = scripted_rules

    async def ready(self) -> None:
        # Built here, not in __init__, so a bad scenario reaches the driver as its own error.
        self.setup = CampaignSetup.from_scenario(self.scenario, scripted_rules=self.scripted_rules)

    async def run(self, job: DialogueJob) -> tuple[DialogueResult | Unfinished, Calls, ToolCalls]:
        result = await attempt_job(self.setup, job)
        did = job.dialogue_id
        return result, self.setup.log.pop(did), self.setup.tool_log.pop(did)

    async def close(self) -> None:
        if hasattr(self, "setup"):  # not when `ready` failed
            await self.setup.close()


class RayExecutor:
    def __init__(self, actors: int = 2, address: str | None = None) -> None:
        if ray is None:
            raise ConfigError(MISSING_RAY)
        self.actors = max(actors, 1)
        self.address = address

    async def run(
        self,
        scenario: Scenario,
        jobs: Jobs,
        on_done: OnDone,
        should_stop: ShouldStop,
        *,
        scripted_rules: Mapping[str, Rule] | None = None,
    ) -> None:
        rules = _picklable(scripted_rules)
        if not jobs:  # a finished campaign resumed: no need to start Ray
            return
        started = self._connect()
        handles: list[Any] = []
        try:
            slots = max(1, scenario.campaign.concurrency // self.actors)
            # Spread: one actor per node where the cluster has several.
            actor_cls = ray.remote(DialogueActor).options(
                max_concurrency=slots + 2, scheduling_strategy="SPREAD"
            )
            handles = [actor_cls.remote(scenario, rules) for _ in range(self.actors)]
            await _ready(handles)
            await _dispatch(handles, slots, jobs, scenario, on_done, should_stop)
        finally:
            await _close(handles)
            if started:
                ray.shutdown()

    def _connect(self) -> bool:
        """True when this call connected (so must shut the connection down)."""
        if ray.is_initialized():
            return False
        # Quiet: Ray's start-up chatter and worker logs would break into the progress bars.
        args: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
        if self.address:
            args["address"] = self.address
        else:
            args.update(num_cpus=self.actors, include_dashboard=False)
        try:
            ray.init(**args)
        except Exception as err:
            where = self.address or "a local Ray instance"
            raise MacrsSimError(f"cannot start Ray ({where}): {describe_error(err)}") from None
        return True


def _picklable(rules: Mapping[str, Rule] | None) -> dict[str, Rule] | None:
    if rules is None:
        return None
    try:
        ray.cloudpickle.dumps(dict(rules))  # type: ignore[no-untyped-call]
    except Exception as err:
        cause = describe_error(err)
        raise ConfigError(f"scripted_rules cannot be sent to Ray actors: {cause}") from None
    return dict(rules)


def _cause(err: BaseException) -> BaseException:
    """A task's own exception rather than Ray's wrapper (whose text is a whole traceback)."""
    cause = getattr(err, "cause", None)
    return cause if isinstance(cause, BaseException) else err


async def _ready(handles: list[Any]) -> None:
    try:
        await asyncio.gather(*(h.ready.remote() for h in handles))
    except ray.exceptions.RayError as err:
        if isinstance(cause := _cause(err), MacrsSimError):
            raise cause from None
        raise MacrsSimError(f"a Ray actor could not start: {describe_error(cause)}") from None


async def _dispatch(
    handles: list[Any],
    slots: int,
    jobs: Jobs,
    scenario: Scenario,
    on_done: OnDone,
    should_stop: ShouldStop,
) -> None:
    """Each job to the next free slot, taken from `jobs` only as it starts (a campaign's
    jobs read their samples then)."""
    dead: dict[int, str] = {}
    pending: Iterator[DialogueJob] = iter(jobs)
    left = len(jobs)

    async def slot(i: int) -> None:
        nonlocal left
        while left and i not in dead and not should_stop():
            job = next(pending, None)
            if job is None:
                left = 0
                return
            left -= 1
            try:
                result, calls, tool_calls = await handles[i].run.remote(job)
            except ray.exceptions.RayError as err:  # also e.g. a result that could not be sent
                cause = describe_error(_cause(err))
                if isinstance(err, ray.exceptions.RayActorError):
                    cause = dead.setdefault(i, f"Ray actor died: {cause}")
                result = error_result(job, scenario.protocol.max_turns, cause)
                calls, tool_calls = [], []
            deliver(on_done, job, scenario.protocol.max_turns, result, calls, tool_calls)

    tasks = [asyncio.ensure_future(slot(i)) for i in range(len(handles)) for _ in range(slots)]
    try:
        await asyncio.gather(*tasks)
    finally:  # cancelled (Ctrl-C): start nothing more
        for task in tasks:
            task.cancel()
    if left and not should_stop():
        last = next(reversed(dead.values()), "")
        raise MacrsSimError(f"every Ray actor died, {left} dialogues not run; {last}")


async def _close(handles: list[Any]) -> None:
    """Close each actor's clients, then free the actor (even when it never got ready)."""
    closing = asyncio.gather(*(h.close.remote() for h in handles), return_exceptions=True)
    # A stuck close must not keep the campaign from ending.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(closing, timeout=30)
    for h in handles:
        ray.kill(h)
