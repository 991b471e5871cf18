"""A campaign's users: a sample-set file as is, or drawn (§4.4) and prepared once (§4.2).

Preparation gives each sample its target profile and opening utterance: by the
LLM for the LLM simulator, by rule for the agenda simulator. Every system then
talks to the same prepared users.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from autogen_core.models import ChatCompletionClient

from macrs_sim.campaign.dialogue import describe_error
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.data.sample_set import SampleSetHeader, read_sample_set, write_sample_set
from macrs_sim.data.samples import build_samples
from macrs_sim.errors import MacrsSimError, ModelUnavailableError
from macrs_sim.protocol import Sample
from macrs_sim.simulators.agenda import prepare_agenda_sample
from macrs_sim.simulators.llm_user import SIMULATOR_PROMPTS
from macrs_sim.simulators.target_profile import prepare_sample


def load_sample_set(setup: CampaignSetup) -> list[Sample] | None:
    """The scenario's sample-set file, checked against its dataset; None when it names none."""
    path = setup.scenario.data.sample_set
    if path is None:
        return None
    expected = (setup.dataset.name, setup.dataset.fingerprint)
    return read_sample_set(Path(path), setup.catalog, dataset=expected)[1]


async def prepare_samples(
    setup: CampaignSetup, samples: list[Sample], bar: CampaignProgress
) -> list[Sample]:
    """Target profile and opening for each sample, `campaign.concurrency` at a time."""
    task = bar.add("preparing samples", len(samples))
    if not setup.simulator_uses_llm:
        people = setup.scenario.simulator.profile_people
        prepared = [prepare_agenda_sample(setup.catalog, s, people=people) for s in samples]
        bar.advance(task, len(prepared))
        return prepared
    client = setup.client(setup.scenario.simulator_model())
    retries = setup.scenario.protocol.max_structured_retries
    template = SIMULATOR_PROMPTS[setup.scenario.simulator.instruction]
    limit = asyncio.Semaphore(setup.scenario.campaign.concurrency)

    async def one(sample: Sample) -> Sample:
        async with limit:
            done = await _prepare_one(setup, client, sample, retries, template)
            bar.advance(task)
            return done

    return list(await asyncio.gather(*(one(s) for s in samples)))


# Whole-sample attempts on top of the client's own retries: a sample whose preparation still
# fails is a setup problem (wrong key, wrong model), and the campaign stops with one line.
SAMPLE_ATTEMPTS = 3


async def _prepare_one(
    setup: CampaignSetup, client: ChatCompletionClient, sample: Sample, retries: int, template: str
) -> Sample:
    for attempt in range(1, SAMPLE_ATTEMPTS + 1):
        try:
            sim = setup.scenario.simulator
            return await prepare_sample(
                client,
                setup.prompts,
                setup.catalog,
                sample,
                retries,
                template=template,
                people=sim.profile_people,
                max_leak_retries=sim.max_leak_retries,
            )
        except MacrsSimError:
            raise
        except Exception as err:
            if attempt == SAMPLE_ATTEMPTS:
                raise ModelUnavailableError(
                    f"preparing sample {sample.sample_id} (target profile, opening) failed "
                    f"{SAMPLE_ATTEMPTS} times: {describe_error(err)}"
                ) from None
    raise AssertionError("unreachable")


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
