"""A campaign's users: a sample-set file as is, or drawn (§4.4) and prepared once (§4.2).

Preparation is the simulator kind's registered `prepare` (simulators/registry.py): the
target profile and opening utterance by the LLM for the LLM user, by rule for the agenda
user; a kind without one keeps its samples as drawn. Every system then talks to the same
prepared users.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import openai

from macrs_sim.campaign.dialogue import describe_error
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.data.sample_set import SampleSetHeader, write_sample_set
from macrs_sim.data.samples import build_samples
from macrs_sim.errors import MacrsSimError, ModelUnavailableError
from macrs_sim.llm.retry import is_transient
from macrs_sim.protocol import Sample
from macrs_sim.simulators.registry import SampleContext, resolve_simulator

# What preparing one sample gave: the prepared sample, the error that ended its attempts,
# or None when it was not started (a budget or Ctrl-C stopped preparation first).
Prepared = Sample | Exception | None


PrepareEach = Callable[[list[Sample]], Awaitable[list[Prepared]]]


async def prepare_each(
    setup: CampaignSetup,
    samples: list[Sample],
    bar: CampaignProgress,
    should_stop: Callable[[], bool] = lambda: False,
    task: int | None = None,
) -> list[Prepared]:
    """Each sample as the simulator kind's `prepare` makes it (target profile, opening),
    `campaign.concurrency` at a time; a sample that cannot be prepared costs that sample
    only. Each advances the bar's `task` (a new "preparing samples" bar when None)."""
    if task is None:
        task = bar.add("preparing samples", len(samples))
    return await sample_preparer(setup, bar, should_stop, task)(samples)


def sample_preparer(
    setup: CampaignSetup, bar: CampaignProgress, should_stop: Callable[[], bool], task: int
) -> PrepareEach:
    """`prepare_each` for lists of samples given one after another, `campaign.concurrency`
    at a time across all of them: a list may start while the one before it finishes."""
    spec = setup.simulator_spec
    if spec.prepare is None:

        async def as_drawn(samples: list[Sample]) -> list[Prepared]:
            bar.advance(task, len(samples))
            return list(samples)

        return as_drawn
    model = setup.scenario.simulator_model()
    ctx = SampleContext(
        catalog=setup.catalog,
        client=setup.client(model) if spec.uses_llm else None,
        prompts=setup.prompts,
        retries=setup.scenario.protocol.max_structured_retries,
    )
    options = resolve_simulator(setup.scenario.simulator)
    prepare = spec.prepare
    limit = asyncio.Semaphore(setup.scenario.campaign.concurrency)

    async def one(sample: Sample) -> Prepared:
        async with limit:
            if should_stop():
                return None
            done = await _prepare_one(lambda: prepare(options, ctx, sample))
            bar.advance(task)
            return done

    async def each(samples: list[Sample]) -> list[Prepared]:
        return list(await asyncio.gather(*(one(s) for s in samples)))

    return each


async def prepare_samples(
    setup: CampaignSetup, samples: list[Sample], bar: CampaignProgress
) -> list[Sample]:
    """Every sample prepared, or ModelUnavailableError naming the first that could not be."""
    ready: list[Sample] = []
    for sample, done in zip(samples, await prepare_each(setup, samples, bar), strict=True):
        if not isinstance(done, Sample):
            raise ModelUnavailableError(
                f"preparing sample {sample.sample_id} (target profile, opening) failed: "
                f"{describe_error(done or RuntimeError('not started'))}"
            )
        ready.append(done)
    return ready


# Whole-sample attempts on top of the client's own retries (errors the model itself
# causes, such as a reply that breaks its schema after the repairs, are not retried).
SAMPLE_ATTEMPTS = 3


async def _prepare_one(attempt_once: Callable[[], Awaitable[Sample]]) -> Sample | Exception:
    for attempt in range(1, SAMPLE_ATTEMPTS + 1):
        try:
            return await attempt_once()
        except MacrsSimError as err:
            return err
        except Exception as err:
            if attempt == SAMPLE_ATTEMPTS:
                if refused(err):
                    # The server refuses the request itself (a wrong spelling of JSON mode, a
                    # wrong model name): every call would fail alike, so stop in one line.
                    first = (str(err).strip().splitlines() or [type(err).__name__])[0]
                    raise ModelUnavailableError(first) from None
                return err
    raise AssertionError("unreachable")


def refused(err: BaseException) -> bool:
    """An HTTP error that no retry or wait can mend (a 4xx other than 408/409/429, or a
    500 whose body says the request is malformed)."""
    return isinstance(err, openai.APIStatusError) and not is_transient(err)


def sample_set_header(setup: CampaignSetup, n_samples: int) -> SampleSetHeader:
    sc = setup.scenario
    simulator = sc.simulator.model_dump(mode="json", exclude_none=True)
    if setup.simulator_uses_llm:
        simulator["model"] = sc.simulator_model().model_dump(mode="json", exclude_none=True)
    return SampleSetHeader(
        dataset=setup.dataset.name,
        dataset_fingerprint=setup.dataset.fingerprint,
        data=sc.data.model_dump(mode="json", exclude_none=True),
        simulator=simulator,
        n_samples=n_samples,
    )


async def build_sample_set(
    setup: CampaignSetup, out: Path, *, progress: bool = True
) -> list[Sample]:
    """`macrs-sim samples build`: draw, prepare, write `out` atomically."""
    drawn = build_samples(setup.dataset, setup.scenario.data)
    with CampaignProgress(enabled=progress) as bar:
        prepared = await prepare_samples(setup, drawn, bar)
    write_sample_set(out, sample_set_header(setup, len(prepared)), prepared)
    return prepared
