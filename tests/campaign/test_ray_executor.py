"""The Ray executor on a local Ray instance, checked against the same dialogues run in-process."""

# ruff: noqa: E402  (ray is imported through importorskip first, so the file skips without it)

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="needs the ray extra: pip install 'macrs-sim[ray]'")

from macrs_sim.agents.macrs.schemas import RecommendOutput
from macrs_sim.campaign.executor import DialogueJob, Unfinished
from macrs_sim.campaign.jobs import run_job
from macrs_sim.campaign.ray_executor import RayExecutor
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.samples import build_samples
from macrs_sim.errors import ConfigError, DataError
from macrs_sim.llm.scripted import Rule, ScriptedRequest
from macrs_sim.protocol import DialogueResult, LLMCallRecord, ToolCallRecord
from macrs_sim.store import RunStore

# Starts a Ray cluster and kills its actors: the slow tier. One worker for the module, so one
# cluster is started (the module fixture `local_ray`), not one per worker.
pytestmark = [pytest.mark.soak, pytest.mark.xdist_group("ray-executor")]

Got = dict[str, tuple[DialogueResult, list[LLMCallRecord]]]


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def make_scenario(**data: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "ray",
            "model": {"backend": "scripted", "latency_s": 0.01},
            "data": {"n_samples": 6, "history_len": 3, "min_history": 1, **data},
            "protocol": {"max_turns": 3, "final_list_k": 5},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
            "campaign": {"concurrency": 4},
            # No response cache: every call takes its scripted latency, in every test.
            "cache": {"enabled": False},
        }
    )


SCENARIO = make_scenario()


def make_jobs() -> list[DialogueJob]:
    samples = build_samples(demo_dataset(SCENARIO.data), SCENARIO.data)
    samples = [
        s.model_copy(update={"opening": f"Something like my film {i}?", "target_profile": ("x",)})
        for i, s in enumerate(samples)
    ]
    return [DialogueJob(sys.name, s) for sys in SCENARIO.systems for s in samples]


def make_rules(jobs: list[DialogueJob], **extra: Rule) -> dict[str, Rule]:
    catalog = demo_dataset(SCENARIO.data).catalog
    rules = default_scripted_rules([i.display_title for i in catalog])
    # A closure over test data: must reach the actors intact (cloudpickle).
    targets = {j.sample.sample_id: catalog[j.sample.target_id].display_title for j in jobs}
    default_recommend = rules["macrs.recommend"]

    def recommend(req: ScriptedRequest) -> Any:
        sample_id = str(req.context.dialogue_id).split(":")[1]
        if sample_id.endswith(("0", "2", "4", "6", "8")):
            return RecommendOutput(item_title=targets[sample_id], response="This one!")
        return default_recommend(req)

    return {**rules, "macrs.recommend": recommend, **extra}


async def run_locally(jobs: list[DialogueJob], rules: dict[str, Rule]) -> Got:
    setup = CampaignSetup.from_scenario(SCENARIO, scripted_rules=rules)
    got: Got = {}
    for job in jobs:
        result = await run_job(setup, job)
        assert isinstance(result, DialogueResult)
        got[job.dialogue_id] = (result, setup.log.pop(job.dialogue_id))
    await setup.close()
    return got


def calls_key(calls: list[LLMCallRecord]) -> list[tuple[Any, ...]]:
    # Calls made concurrently within a turn may be recorded in either order.
    return sorted((c.dialogue_id, c.system, c.role, c.turn, c.prompt_tokens, c.ok) for c in calls)


class Collector:
    def __init__(self, stop_after: int | None = None) -> None:
        self.got: list[tuple[DialogueResult, list[LLMCallRecord]]] = []
        self.done_at: list[float] = []
        self.asked_at: list[float] = []
        self.stop_after = stop_after

    def on_done(
        self,
        result: DialogueResult | Unfinished,
        calls: list[LLMCallRecord],
        tool_calls: list[ToolCallRecord],
    ) -> None:
        assert isinstance(result, DialogueResult)  # no outage here
        assert tool_calls == []  # MACRS and single-LLM call no tools
        self.got.append((result, calls))
        self.done_at.append(time.perf_counter())

    def should_stop(self) -> bool:
        self.asked_at.append(time.perf_counter())
        return self.stop_after is not None and len(self.got) >= self.stop_after

    def by_id(self) -> Got:
        ids = [r.dialogue_id for r, _ in self.got]
        assert len(ids) == len(set(ids)), "a dialogue was delivered twice"
        return {r.dialogue_id: (r, calls) for r, calls in self.got}


async def test_every_job_comes_back_once_as_it_would_locally() -> None:
    jobs = make_jobs()
    rules = make_rules(jobs)
    col = Collector()
    await RayExecutor(actors=2).run(
        SCENARIO, jobs, col.on_done, col.should_stop, scripted_rules=rules
    )
    got, expected = col.by_id(), await run_locally(jobs, rules)
    assert len(jobs) == 12 and got.keys() == expected.keys()
    for dialogue_id, (result, calls) in got.items():
        want, want_calls = expected[dialogue_id]
        assert result.model_dump() == want.model_dump()
        assert calls and {c.dialogue_id for c in calls} == {dialogue_id}
        assert calls_key(calls) == calls_key(want_calls)
    statuses = {r.status for r, _ in got.values()}
    assert statuses == {"success", "failure"}
    # Streamed: the first result reached the driver before the last dialogue was even started.
    assert col.done_at[0] < col.asked_at[-1]
    assert col.done_at[-1] - col.done_at[0] > 0.1


async def test_should_stop_lets_in_flight_dialogues_finish_and_starts_no_more() -> None:
    jobs = make_jobs()
    col = Collector(stop_after=3)
    await RayExecutor(actors=2).run(SCENARIO, jobs, col.on_done, col.should_stop)
    got = col.by_id()
    # Concurrency 4 over 2 actors: at most 4 dialogues were in flight when the third ended.
    assert 3 <= len(got) <= 3 + 3 < len(jobs)
    assert all(r.status != "error" for r, _ in got.values())


async def test_a_dead_actor_costs_only_the_dialogues_it_was_running() -> None:
    jobs = make_jobs()
    doomed = jobs[1].dialogue_id

    def crash(req: ScriptedRequest) -> str:
        if req.context.dialogue_id == doomed:
            os._exit(1)  # the whole worker process goes, as on an out-of-memory kill
        return "No thanks, something else."

    col = Collector()
    rules = make_rules(jobs, user=crash)
    await RayExecutor(actors=2).run(
        SCENARIO, jobs, col.on_done, col.should_stop, scripted_rules=rules
    )
    got = col.by_id()
    assert got.keys() == {j.dialogue_id for j in jobs}
    errors = {i: r.error for i, (r, _) in got.items() if r.status == "error"}
    # The doomed dialogue and at most one neighbour on the same actor (2 slots each).
    assert doomed in errors and len(errors) <= 2
    assert all(e and e.startswith("Ray actor died:") for e in errors.values())


async def test_a_bad_scenario_fails_with_its_own_error() -> None:
    bad = make_scenario(dataset="/nowhere/movies.sqlite")
    col = Collector()
    with pytest.raises(DataError):
        await RayExecutor(actors=1).run(bad, make_jobs()[:1], col.on_done, col.should_stop)
    assert col.got == []


async def test_rules_that_cannot_be_pickled_are_one_config_error() -> None:
    lock = threading.Lock()

    def locked(req: ScriptedRequest) -> str:
        with lock:
            return "hi"

    col = Collector()
    with pytest.raises(ConfigError, match="cannot be sent to Ray actors"):
        await RayExecutor().run(
            SCENARIO, [], col.on_done, col.should_stop, scripted_rules={"user": locked}
        )


async def test_a_campaign_on_ray_stores_what_a_local_one_does(tmp_path: Path) -> None:
    stored = {}
    for executor in ("local", "ray"):
        # One cache file per run, shared by the actors' processes.
        sc = parse_scenario(
            {
                **SCENARIO.model_dump(),
                "campaign": {"concurrency": 4, "executor": executor, "ray_actors": 2},
                "cache": {"path": str(tmp_path / f"{executor}.sqlite")},
            }
        )
        result = await run_campaign_async(sc, output_dir=tmp_path / executor, progress=False)
        with RunStore.open(result.store_path) as store:
            assert store.get_meta("status") == "finished"
            calls = [c for c in store.read_calls() if c.dialogue_id is not None]
            stored[executor] = (
                {r.dialogue_id: r.model_dump() for r in store.read_results()},
                calls_key(calls),
            )
    assert len(stored["ray"][0]) == 12
    assert stored["ray"] == stored["local"]
