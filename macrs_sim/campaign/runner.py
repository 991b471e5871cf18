"""The campaign orchestrator: samples once, then every (system, sample) dialogue, bounded.

Running the same scenario again resumes its newest unfinished run (crash, SIGKILL,
Ctrl-C or budget stop): its stored samples are reused, its stored dialogues are
skipped and every other dialogue starts from its beginning (see rundir, resume).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.analysis.metrics.outcomes import SystemMetrics
from macrs_sim.analysis.report.summary import run_metrics
from macrs_sim.campaign.executor import Executor
from macrs_sim.campaign.local_executor import LocalExecutor
from macrs_sim.campaign.resume import RunStatus, Session
from macrs_sim.campaign.rundir import STORE_FILE, claim_run_dir, discard_run_dir, mark_reported
from macrs_sim.campaign.sample_source import SampleSource, sample_source
from macrs_sim.campaign.setup import CampaignSetup, with_cache_path
from macrs_sim.campaign.sizing import sizing_warning
from macrs_sim.campaign.stopping import CampaignInterrupted
from macrs_sim.campaign.system_checks import check_systems, prepare_systems
from macrs_sim.config import Scenario, load_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import ConfigError
from macrs_sim.llm.factory import preflight_scenario
from macrs_sim.llm.pricing import Spend
from macrs_sim.llm.scripted import Rule
from macrs_sim.store import RunStore

__all__ = ["CampaignInterrupted", "CampaignResult", "run_campaign", "run_campaign_async"]


@dataclass(frozen=True)
class CampaignResult:
    run_dir: Path
    metrics: list[SystemMetrics]
    wall_s: float
    status: RunStatus
    resumed: bool
    already_done: int  # dialogues stored by earlier sessions of a resumed run
    stored: int  # dialogues in the store now
    expected: int
    spend: Spend  # this run's spending, earlier sessions included
    unfinished: int = 0  # dialogues an outage cut short this session (the same command redoes them)
    # The report's one-line behaviour warnings (None: no report was written this session)
    warnings: tuple[str, ...] | None = None

    @property
    def store_path(self) -> Path:
        return self.run_dir / STORE_FILE

    @property
    def report_path(self) -> Path:
        return self.run_dir / "report.md"


def make_executor(setup: CampaignSetup) -> Executor:
    campaign = setup.scenario.campaign
    if campaign.executor == "local":
        return LocalExecutor(setup)
    try:
        from macrs_sim.campaign.ray_executor import RayExecutor
    except ImportError as err:
        raise ConfigError(
            f"campaign.executor = 'ray' cannot be used ({err}):"
            " install the ray extra: pip install 'macrs-sim[ray]'"
        ) from None
    executor: Executor = RayExecutor(campaign.ray_actors, campaign.ray_address)
    return executor


async def run_campaign_async(
    scenario: Scenario,
    *,
    output_dir: Path | str | None = None,
    progress: bool = True,
    scripted_rules: Mapping[str, Rule] | None = None,
    resume: bool = True,
    notify: Callable[[str], None] | None = None,
    report: bool = True,
    retry_errors: bool = False,
) -> CampaignResult:
    """Run (or resume, unless `resume` is False) a campaign; Ctrl-C raises CampaignInterrupted.

    `notify` gets one-line news such as which run is resumed and how far it got;
    `report=False` skips writing report.md and its figures (`macrs-sim report` can later).
    `retry_errors` runs again the dialogues stored as errors (of a finished run too).
    A run is done once its report is written: a run killed while writing it is found
    again, and the same command writes only the report.
    """
    started = time.perf_counter()
    output_dir = Path(output_dir) if output_dir is not None else None
    scenario = with_cache_path(scenario, output_dir)
    setup = CampaignSetup.from_scenario(scenario, scripted_rules=scripted_rules)
    try:
        source, scenario = await _before_any_file(setup, notify)
        executor = make_executor(setup)
        base = output_dir if output_dir is not None else Path(scenario.campaign.output_dir)
        run_dir, lock, resumed = claim_run_dir(
            scenario, base, resume=resume, retry_errors=retry_errors
        )
        try:
            session = Session(
                setup, run_dir, resumed, progress, scripted_rules, notify, retry_errors
            )
            outcome = await session.run(executor, source)
            warned = None
            if outcome.status == "finished":
                if report:
                    warned = _write_report(run_dir, setup.catalog)
                mark_reported(run_dir)
        except CampaignInterrupted:
            raise  # kept, even with nothing stored yet: the same command resumes it
        except Exception:
            if not resumed and not _has_dialogues(run_dir):
                discard_run_dir(run_dir)
            raise
        finally:
            lock.release()
    finally:
        await setup.close()
    if report and outcome.status != "finished":
        warned = _write_report(run_dir, setup.catalog)  # a partial run's report says so
    o = outcome
    return CampaignResult(
        run_dir, run_metrics_of(run_dir), time.perf_counter() - started,
        o.status, resumed, o.already_done, o.stored, o.expected, o.spend, o.unfinished, warned,
    )  # fmt: skip


async def _before_any_file(
    setup: CampaignSetup, notify: Callable[[str], None] | None
) -> tuple[SampleSource, Scenario]:
    """Bad data, options, models or training fail here, before any file is made: the
    samples (a sample set checked whole, or drawn) and the scenario as preflight left it."""
    # A kind only another command can run (the person of `chat`) says so in one line.
    refused = getattr(setup.simulator_spec.options, "not_in_campaign", None)
    if isinstance(refused, str):
        raise ConfigError(f'simulator: kind "{setup.simulator_spec.kind}" {refused}')
    source = sample_source(setup)
    check_systems(setup)  # cheap checks first, then the model servers, then training
    scenario = await _preflight(setup, notify)
    prepare_systems(setup)
    return source, scenario


async def _preflight(setup: CampaignSetup, notify: Callable[[str], None] | None) -> Scenario:
    """Every model reachable, or one line. `auto` structured outputs are probed here: the mode
    each endpoint accepted is what the run uses and saves in its resolved scenario (no client
    exists yet to rebuild). A campaign that cannot fill its endpoints says so."""
    scenario = await preflight_scenario(setup.scenario, setup.model_configs(), notify)
    setup.scenario = scenario
    warning = sizing_warning(scenario)
    if warning is not None and notify is not None:
        notify(warning)
    return scenario


def run_campaign(scenario: Scenario | str | Path, **kwargs: object) -> CampaignResult:
    """Synchronous entry point for scripts and notebooks.

    Inside a running event loop (Jupyter) asyncio.run would refuse, so the campaign
    then runs on its own loop in a worker thread and this call blocks until it ends.
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    coro = run_campaign_async(scenario, **kwargs)  # type: ignore[arg-type]
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="run_campaign") as pool:
        return pool.submit(asyncio.run, coro).result()


def _write_report(run_dir: Path, catalog: Catalog) -> tuple[str, ...] | None:
    """Write the run's report; its behaviour warnings (None when it could not check them)."""
    # Imported here: the full report needs matplotlib, which `import` of the runner should not.
    from macrs_sim.analysis.memory import give_back_freed_memory
    from macrs_sim.analysis.report.behaviour import warnings
    from macrs_sim.analysis.report.for_report import load_for_report
    from macrs_sim.analysis.report.full import write_report

    give_back_freed_memory()  # from here on: the campaign's own allocations are done
    run = load_for_report(run_dir, catalog)
    write_report(run_dir, catalog, run=run)
    return None if run.behaviour is None else tuple(warnings(*run.behaviour))


def run_metrics_of(run_dir: Path) -> list[SystemMetrics]:
    with RunStore.open(run_dir / STORE_FILE) as store:
        return run_metrics(store)


def _has_dialogues(run_dir: Path) -> bool:
    try:
        with RunStore.open(run_dir / STORE_FILE) as store:
            return store.counts()["dialogues"] > 0
    except Exception:
        return False
