"""The campaign orchestrator: samples once, then every (system, sample) dialogue, bounded."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.analysis.metrics import SystemMetrics
from macrs_sim.analysis.report import run_metrics, write_report
from macrs_sim.campaign.dialogue import run_dialogue
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.rundir import SAMPLES_FILE, STORE_FILE, discard_run_dir, new_run_dir
from macrs_sim.campaign.setup import CampaignSetup, draw_samples
from macrs_sim.config import Scenario, SystemConfig, load_scenario
from macrs_sim.llm.factory import preflight
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import DialogueResult, Sample
from macrs_sim.simulators.target_profile import prepare_sample
from macrs_sim.store import RunStore


@dataclass(frozen=True)
class CampaignResult:
    run_dir: Path
    metrics: list[SystemMetrics]
    wall_s: float

    @property
    def store_path(self) -> Path:
        return self.run_dir / STORE_FILE

    @property
    def report_path(self) -> Path:
        return self.run_dir / "report.md"


async def run_campaign_async(
    scenario: Scenario,
    *,
    output_dir: Path | None = None,
    progress: bool = True,
    scripted_rules: Mapping[str, Rule] | None = None,
) -> CampaignResult:
    started = time.perf_counter()
    setup = CampaignSetup.from_scenario(scenario, scripted_rules=scripted_rules)
    samples = draw_samples(setup.catalog, scenario.data)  # bad data fails before any file is made
    for cfg in setup.model_configs():
        await preflight(cfg)
    run_dir = new_run_dir(scenario, output_dir)
    try:
        with RunStore.create(run_dir / STORE_FILE) as store:
            store.set_meta("scenario_name", scenario.name)
            store.set_meta("systems", json.dumps([s.name for s in scenario.systems]))
            with CampaignProgress(enabled=progress) as bar:
                prepared = await _prepare_samples(setup, samples, store, bar)
                await _run_dialogues(setup, prepared, store, bar)
            store.set_meta("prompt_sha256", json.dumps(setup.prompts.hashes()))
            metrics = run_metrics(store)
    except BaseException:
        if not (run_dir / STORE_FILE).exists() or not _has_dialogues(run_dir):
            discard_run_dir(run_dir)
        raise
    finally:
        await setup.close()
    write_report(run_dir)
    return CampaignResult(run_dir, metrics, time.perf_counter() - started)


def run_campaign(scenario: Scenario | str | Path, **kwargs: object) -> CampaignResult:
    """Synchronous entry point for scripts and notebooks (not inside a running event loop)."""
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    return asyncio.run(run_campaign_async(scenario, **kwargs))  # type: ignore[arg-type]


def _has_dialogues(run_dir: Path) -> bool:
    try:
        with RunStore.open(run_dir / STORE_FILE) as store:
            return store.counts()["dialogues"] > 0
    except Exception:
        return False


async def _prepare_samples(
    setup: CampaignSetup, samples: list[Sample], store: RunStore, bar: CampaignProgress
) -> list[Sample]:
    """Target profile and opening, built once per sample and shared by every system (§4.2)."""
    client = setup.client(setup.scenario.simulator_model())
    retries = setup.scenario.protocol.max_structured_retries
    limit = asyncio.Semaphore(setup.scenario.campaign.concurrency)
    task = bar.add("preparing samples", len(samples))

    async def one(sample: Sample) -> Sample:
        async with limit:
            prepared = await prepare_sample(client, setup.prompts, setup.catalog, sample, retries)
            bar.advance(task)
            return prepared

    prepared = list(await asyncio.gather(*(one(s) for s in samples)))
    store.write_samples(prepared)
    store.write_calls(setup.log.pop(None))
    path = store.path.parent / SAMPLES_FILE
    path.write_text("".join(s.model_dump_json() + "\n" for s in prepared), encoding="utf-8")
    return prepared


async def _run_dialogues(
    setup: CampaignSetup, samples: list[Sample], store: RunStore, bar: CampaignProgress
) -> None:
    limit = asyncio.Semaphore(setup.scenario.campaign.concurrency)
    tasks = {s.name: bar.add(s.name, len(samples)) for s in setup.scenario.systems}

    async def one(system_cfg: SystemConfig, sample: Sample) -> None:
        dialogue_id = f"{system_cfg.name}:{sample.sample_id}"
        async with limit:
            result = await _dialogue(setup, system_cfg, sample, dialogue_id)
        # The single event loop owns the store: writes happen here, one dialogue at a time.
        store.write_dialogue(result, setup.log.pop(dialogue_id))
        bar.advance(tasks[system_cfg.name], success=result.status == "success")

    await asyncio.gather(*(one(c, s) for c in setup.scenario.systems for s in samples))


async def _dialogue(
    setup: CampaignSetup, cfg: SystemConfig, sample: Sample, dialogue_id: str
) -> DialogueResult:
    system = setup.build_system(cfg, dialogue_id)
    simulator = setup.build_simulator(sample, dialogue_id, cfg.name)
    return await run_dialogue(
        system,
        simulator,
        setup.grounder,
        dialogue_id=dialogue_id,
        sample=sample,
        protocol=setup.scenario.protocol,
    )
