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
from macrs_sim.campaign.judging import judge_campaign
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.rundir import SAMPLES_FILE, STORE_FILE, discard_run_dir, new_run_dir
from macrs_sim.campaign.sampling import load_sample_set, prepare_samples, sample_set_header
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario, SystemConfig, load_scenario
from macrs_sim.data.sample_set import write_sample_set
from macrs_sim.data.samples import build_samples
from macrs_sim.llm.factory import preflight
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import DialogueResult, Sample
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
    # Bad data fails here, before any file is made.
    shared = load_sample_set(setup)
    samples = shared if shared is not None else build_samples(setup.dataset, scenario.data)
    for cfg in setup.model_configs():
        await preflight(cfg)
    run_dir = new_run_dir(scenario, output_dir)
    try:
        with RunStore.create(run_dir / STORE_FILE) as store:
            store.set_meta("scenario_name", scenario.name)
            store.set_meta("systems", json.dumps([s.name for s in scenario.systems]))
            # "running" until the last dialogue is stored: reports can tell a partial run.
            store.set_meta("status", "running")
            store.set_meta("expected_dialogues", str(len(scenario.systems) * len(samples)))
            with CampaignProgress(enabled=progress) as bar:
                if shared is None:
                    samples = await prepare_samples(setup, samples, bar)
                    store.write_calls(setup.log.pop(None))
                _record_samples(setup, samples, store)
                await _run_dialogues(setup, samples, store, bar)
            store.set_meta("prompt_sha256", json.dumps(setup.prompts.hashes()))
            store.set_meta("status", "finished")
            metrics = run_metrics(store)
        if scenario.judge.enabled:
            await judge_campaign(setup, run_dir)
    except BaseException:
        if not (run_dir / STORE_FILE).exists() or not _has_dialogues(run_dir):
            discard_run_dir(run_dir)
        raise
    finally:
        await setup.close()
    write_report(run_dir, setup.catalog)
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


def _record_samples(setup: CampaignSetup, samples: list[Sample], store: RunStore) -> None:
    """The store keeps the samples; `samples.jsonl` is a sample-set file others can reuse."""
    store.write_samples(samples)
    store.set_meta("dataset", setup.dataset.name)
    store.set_meta("dataset_fingerprint", setup.dataset.fingerprint)
    header = sample_set_header(setup, len(samples))
    write_sample_set(store.path.parent / SAMPLES_FILE, header, samples)


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
