"""A run's users: drawn once, stored, prepared (target profile, opening) as far as possible.

A sample that cannot be prepared costs its dialogues, not the campaign: when the
model caused it (a reply broken after the repairs), each system's dialogue with it
is stored as an error naming the cause; when the server did (an outage), or the
budget or Ctrl-C stopped preparation first, it stays unprepared and its dialogues
unstarted, and the same command prepares it again.
"""

from __future__ import annotations

from collections.abc import Callable

from macrs_sim.campaign.dialogue import describe_error
from macrs_sim.campaign.executor import DialogueJob
from macrs_sim.campaign.jobs import error_result
from macrs_sim.campaign.outage import is_outage
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.sampling import Prepared, prepare_each
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample
from macrs_sim.store import RunStore


def is_prepared(sample: Sample) -> bool:
    return bool(sample.opening)


def _failed_dialogues(
    setup: CampaignSetup, store: RunStore, todo: list[Sample], by_id: dict[str, Prepared]
) -> list[DialogueResult]:
    """Each system's error dialogue with each sample the model could not prepare."""
    done = store.finished_dialogue_ids()
    max_turns = setup.scenario.protocol.max_turns
    failed: list[DialogueResult] = []
    for sample in todo:
        err = by_id[sample.sample_id]
        if not isinstance(err, Exception) or is_outage(err):
            continue
        cause = f"preparing the user failed: {describe_error(err)}"
        jobs = [DialogueJob(s.name, sample) for s in setup.scenario.systems]
        failed += [error_result(j, max_turns, cause) for j in jobs if j.dialogue_id not in done]
    return failed


def _to_prepare(setup: CampaignSetup, store: RunStore, samples: list[Sample]) -> list[Sample]:
    """Unprepared samples with a dialogue still to run (a retried error, say)."""
    done = store.finished_dialogue_ids()
    names = [s.name for s in setup.scenario.systems]
    return [
        s
        for s in samples
        if not is_prepared(s) and any(f"{n}:{s.sample_id}" not in done for n in names)
    ]


async def ready_samples(
    setup: CampaignSetup,
    store: RunStore,
    drawn: list[Sample],
    *,
    prepared: bool,
    bar: CampaignProgress,
    should_stop: Callable[[], bool],
    take_calls: Callable[[], list[LLMCallRecord]],
) -> list[Sample]:
    """The run's samples, stored; those still unprepared have no opening."""
    stored = store.read_samples()
    samples = stored or drawn
    todo = [] if prepared and not stored else _to_prepare(setup, store, samples)
    if stored and not todo:
        return stored
    outcomes = await prepare_each(setup, todo, bar, should_stop)
    by_id = dict(zip((s.sample_id for s in todo), outcomes, strict=True))
    ready = [x if isinstance(x := by_id.get(s.sample_id), Sample) else s for s in samples]
    failed = _failed_dialogues(setup, store, todo, by_id)
    changed = ready if not stored else [s for s in ready if s.sample_id in by_id]
    store.write_prepared(changed, take_calls(), failed)
    return ready
