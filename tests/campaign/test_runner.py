"""A whole campaign on the scripted backend: run dir, store, report, shared samples."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from macrs_sim.agents.macrs.schemas import RecommendOutput
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import SimulatorConfig, parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.samples import build_samples
from macrs_sim.errors import DataError
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.store import RunStore


def scenario(tmp_path: Path, catalog: Catalog, **data: object):  # type: ignore[no-untyped-def]
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    return parse_scenario(
        {
            "name": "t",
            "model": {"backend": "scripted"},
            "data": {
                "catalog": str(path),
                "history_len": 3,
                "min_history": 1,
                "n_samples": 3,
                **data,
            },
            "protocol": {"max_turns": 3, "final_list_k": 5},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


async def test_campaign_writes_everything(tmp_path: Path, catalog: Catalog) -> None:
    result = await run_campaign_async(
        scenario(tmp_path, catalog), output_dir=tmp_path / "runs", progress=False
    )
    run = result.run_dir
    assert run.parent == tmp_path / "runs"
    assert {p.name for p in run.iterdir()} >= {
        "scenario.resolved.toml",
        "store.sqlite",
        "report.md",
        "results.csv",
        "samples.jsonl",
    }
    resolved = tomllib.loads((run / "scenario.resolved.toml").read_text())
    assert resolved["protocol"]["temperature"] == 0.0 and resolved["data"]["history_len"] == 3
    with RunStore.open(run / "store.sqlite") as store:
        results = store.read_results()
        samples = store.read_samples()
        calls = store.read_calls()
    assert len(results) == 6 and len(samples) == 3
    assert all(s.opening and s.target_profile for s in samples)
    # Every system saw the same openings (paper §4.2).
    for r in results:
        assert r.opening.text == next(s.opening for s in samples if s.sample_id == r.sample_id)
    macrs = [r for r in results if r.system == "MACRS"]
    assert all(len(r.exchanges) == 3 and r.status == "failure" for r in macrs)
    assert all(len(r.final_list) == 5 for r in macrs)
    explain = macrs[0].exchanges[1].system.explain
    assert set(explain["candidates"]) == {"ask", "chat", "recommend"}
    assert explain["planner"]["choice"] == "recommend"
    roles = {c.role for c in calls}
    assert roles >= {
        "macrs.ask",
        "macrs.chat",
        "macrs.recommend",
        "macrs.planner",
        "macrs.info_reflector",
        "macrs.strategy_reflector",
        "final_list",
        "single_llm.respond",
        "user",
        "target_profile",
        "opening",
    }
    assert all(c.turn is not None for c in calls if c.dialogue_id is not None)
    assert [m.system for m in result.metrics] == ["MACRS", "single"]
    assert "| MACRS |" in result.report_path.read_text()


async def test_recommending_the_target_succeeds(tmp_path: Path, catalog: Catalog) -> None:
    sc = scenario(tmp_path, catalog)
    rules = default_scripted_rules([i.display_title for i in catalog])
    samples_by_dialogue: dict[str, str] = {}

    def oracle(req: ScriptedRequest) -> RecommendOutput:
        # The test knows each sample's target: recommend it, so the planner's turn-2 pick succeeds.
        target = samples_by_dialogue[str(req.context.dialogue_id).split(":")[1]]
        return RecommendOutput(item_title=catalog[target].display_title, response="This one!")

    rules["macrs.recommend"] = oracle
    samples = build_samples(demo_dataset(sc.data), sc.data)
    samples_by_dialogue.update({s.sample_id: s.target_id for s in samples})
    result = await run_campaign_async(
        sc, output_dir=tmp_path / "runs", progress=False, scripted_rules=rules
    )
    macrs = result.metrics[0]
    assert macrs.system == "MACRS" and macrs.success_rate == 1.0 and macrs.avg_turns == 2.0
    assert macrs.hit_at[5] == 1.0
    with RunStore.open(result.store_path) as store:
        r = store.read_results(system="MACRS")[0]
    assert r.exchanges[-1].system.items[0].method == "exact" and r.exchanges[-1].user.accepted
    assert json.loads(r.model_dump_json())["success_turn"] == 2


async def test_a_runs_samples_file_is_a_reusable_sample_set(
    tmp_path: Path, catalog: Catalog
) -> None:
    first = await run_campaign_async(
        scenario(tmp_path, catalog), output_dir=tmp_path / "runs", progress=False
    )
    shared = first.run_dir / "samples.jsonl"
    again = scenario(tmp_path, catalog, sample_set=str(shared), n_samples=1)
    second = await run_campaign_async(again, output_dir=tmp_path / "runs2", progress=False)
    with RunStore.open(first.store_path) as a, RunStore.open(second.store_path) as b:
        assert a.read_samples() == b.read_samples()  # all 3, n_samples does not apply
        roles = {c.role for c in b.read_calls()}
    assert "target_profile" not in roles and "opening" not in roles  # nothing prepared again


async def test_a_sample_set_from_another_dataset_is_refused(
    tmp_path: Path, catalog: Catalog
) -> None:
    first = await run_campaign_async(
        scenario(tmp_path, catalog), output_dir=tmp_path / "runs", progress=False
    )
    demo = parse_scenario(
        {
            "name": "demo",
            "model": {"backend": "scripted"},
            "data": {"sample_set": str(first.run_dir / "samples.jsonl")},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )
    with pytest.raises(
        DataError, match=r"was built from dataset 'demo:.*but the scenario's dataset is 'demo'"
    ):
        await run_campaign_async(demo, output_dir=tmp_path / "runs3", progress=False)
    assert not (tmp_path / "runs3").exists()


async def test_agenda_simulator_campaign_makes_no_user_calls(
    tmp_path: Path, catalog: Catalog
) -> None:
    sc = scenario(tmp_path, catalog).model_copy(
        update={"simulator": SimulatorConfig(kind="agenda")}
    )
    result = await run_campaign_async(sc, output_dir=tmp_path / "runs", progress=False)
    with RunStore.open(result.store_path) as store:
        roles = {c.role for c in store.read_calls()}
        samples = store.read_samples()
        results = store.read_results()
    assert not roles & {"user", "target_profile", "opening"}
    assert all(s.opening.startswith("I'm looking for") for s in samples)
    assert all(r.status != "error" for r in results)
    report = result.report_path.read_text()
    assert "## Simulator validity" in report
    assert (result.run_dir / "validity.csv").is_file()


async def test_judge_phase_writes_table2(tmp_path: Path, catalog: Catalog) -> None:
    from macrs_sim.campaign.judging import judge_campaign
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.config import JudgeConfig
    from macrs_sim.judge import read_judgments

    sc = scenario(tmp_path, catalog).model_copy(update={"judge": JudgeConfig(enabled=True)})
    result = await run_campaign_async(sc, output_dir=tmp_path / "runs", progress=False)
    records = read_judgments(result.run_dir)
    # Scripted MACRS: a failed recommendation at turn 2, so turn 3 carries a suggestion.
    assert records and {r.turn for r in records} == {3} and all(r.error is None for r in records)
    with RunStore.open(result.store_path) as store:
        roles = [c.role for c in store.read_calls()]
    assert roles.count("judge") == 2 * len(records)  # both presentation orders
    assert "## Strategy-level suggestions (Table 2)" in result.report_path.read_text()
    setup = CampaignSetup.from_scenario(sc)
    try:
        assert await judge_campaign(setup, result.run_dir) == []  # resumes: nothing left
    finally:
        await setup.close()


# --- the local executor -------------------------------------------------------------------


def agenda_setup(tmp_path: Path, catalog: Catalog, concurrency: int = 3):  # type: ignore[no-untyped-def]
    from macrs_sim.campaign.executor import DialogueJob
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.config import CampaignConfig
    from macrs_sim.simulators.agenda import prepare_agenda_sample

    sc = scenario(tmp_path, catalog, n_samples=4).model_copy(
        update={
            "simulator": SimulatorConfig(kind="agenda"),
            "campaign": CampaignConfig(concurrency=concurrency, output_dir=str(tmp_path)),
        }
    )
    setup = CampaignSetup.from_scenario(sc)
    samples = [
        prepare_agenda_sample(setup.catalog, s) for s in build_samples(setup.dataset, sc.data)
    ]
    jobs = [DialogueJob(s.name, x) for s in sc.systems for x in samples]
    return sc, setup, jobs


async def test_local_executor_bounds_concurrency_stops_on_request_and_keeps_nothing(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import gc
    import weakref

    from macrs_sim.campaign import jobs as job_runner
    from macrs_sim.campaign.local_executor import LocalExecutor, error_result
    from macrs_sim.protocol import DialogueResult

    sc, setup, jobs = agenda_setup(tmp_path, catalog, concurrency=3)
    in_flight, peak = 0, 0

    async def fake_dialogue(*args: object, **kw: object) -> DialogueResult:
        nonlocal in_flight, peak
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(0.01)
        in_flight -= 1
        job = next(j for j in jobs if j.dialogue_id == kw["dialogue_id"])
        return error_result(job, 3, RuntimeError("a big result " * 1000))

    monkeypatch.setattr(job_runner, "run_dialogue", fake_dialogue)
    done: list[weakref.ref[object]] = []
    try:
        await LocalExecutor(setup).run(
            sc,
            jobs,
            lambda r, calls, tool_calls: done.append(weakref.ref(r)),
            lambda: len(done) >= 4,
        )
    finally:
        await setup.close()
    assert peak == 3
    # Stopped after 4: the 3 in flight when the 4th finished ran on, none started after.
    assert 4 <= len(done) <= 6 < len(jobs)
    gc.collect()
    assert all(ref() is None for ref in done)  # finished dialogues are not kept


async def test_faults_outside_run_dialogue_cost_only_their_dialogue(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    from macrs_sim.campaign.executor import Unfinished
    from macrs_sim.campaign.local_executor import LocalExecutor
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.protocol import DialogueResult, LLMCallRecord, ToolCallRecord

    sc, setup, jobs = agenda_setup(tmp_path, catalog)
    build = CampaignSetup.build_simulator

    def broken_simulator(self: CampaignSetup, sample: object, dialogue_id: str, name: str):  # type: ignore[no-untyped-def]
        if dialogue_id == jobs[0].dialogue_id:
            raise RuntimeError("simulator would not build")
        return build(self, sample, dialogue_id, name)  # type: ignore[arg-type]

    monkeypatch.setattr(CampaignSetup, "build_simulator", broken_simulator)
    stored: dict[str, DialogueResult] = {}

    def on_done(
        result: DialogueResult | Unfinished,
        calls: list[LLMCallRecord],
        tool_calls: list[ToolCallRecord],
    ) -> None:
        assert isinstance(result, DialogueResult)
        if result.dialogue_id == jobs[1].dialogue_id and result.status != "error":
            raise TypeError("result cannot be stored")  # a bug in on_done
        stored[result.dialogue_id] = result

    try:
        await LocalExecutor(setup).run(sc, jobs, on_done, lambda: False)
    finally:
        await setup.close()
    assert len(stored) == len(jobs)
    assert stored[jobs[0].dialogue_id].error == "RuntimeError: simulator would not build"
    assert stored[jobs[1].dialogue_id].error == "TypeError: result cannot be stored"
    broken = {jobs[0].dialogue_id, jobs[1].dialogue_id}
    assert all(r.status != "error" for d, r in stored.items() if d not in broken)


async def test_the_ray_executor_without_ray_is_a_config_error_before_any_run_dir(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from macrs_sim.config import CampaignConfig
    from macrs_sim.errors import ConfigError

    monkeypatch.setitem(sys.modules, "macrs_sim.campaign.ray_executor", None)  # not importable
    sc = scenario(tmp_path, catalog).model_copy(update={"campaign": CampaignConfig(executor="ray")})
    with pytest.raises(ConfigError, match=r"install the ray extra: pip install 'macrs-sim\[ray\]'"):
        await run_campaign_async(sc, output_dir=tmp_path / "runs", progress=False)
    assert not (tmp_path / "runs").exists()
