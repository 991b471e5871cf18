"""Everything a campaign shares across dialogues: data, prompts, one client per model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.base import Recommender
from macrs_sim.agents.context import PrepareContext, SystemContext, history_for
from macrs_sim.agents.registry import (
    SystemOptions,
    entry_label,
    import_ref,
    resolve_entries,
    system_spec,
)
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import ModelConfig, Scenario, SystemEntry
from macrs_sim.config.numbers import check_numbers
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset, open_dataset
from macrs_sim.data.grounding import grounder_for
from macrs_sim.data.sample_set import SampleSetReader
from macrs_sim.data.sample_view import SampleSetView
from macrs_sim.data.samples import build_samples, user_items, with_pre_target
from macrs_sim.data.splits import deferred_campaign_dataset
from macrs_sim.llm.accounting import CallLog
from macrs_sim.llm.backends.registry import backend_spec, resolve_model
from macrs_sim.llm.breaker import CircuitBreaker
from macrs_sim.llm.cache import CACHE_FILE, ResponseCache
from macrs_sim.llm.factory import build_client
from macrs_sim.llm.scripted import Rule
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample
from macrs_sim.simulators.base import UserSimulator
from macrs_sim.simulators.registry import (
    SimulatorContext,
    SimulatorOptions,
    SimulatorSpec,
    resolve_simulator,
    scripted_rules_of_simulators,
    simulator_spec,
)
from macrs_sim.tools import ToolCallLog
from macrs_sim.tools.attribute_columns import catalog_schema
from macrs_sim.tools.schema import prompt_words

# How long a call waits for a server that went away before its dialogue is left unfinished.
OUTAGE_WAIT_S = 600.0


def model_key(cfg: ModelConfig) -> str:
    return cfg.model_dump_json()


def cache_path(scenario: Scenario, output_dir: Path | None = None) -> Path:
    """scenario.cache.path, else the cache file in the output folder (`output_dir`, the
    runner's override, else campaign.output_dir); absolute, so processes started
    elsewhere (Ray actors) open the same file."""
    if scenario.cache.path:
        return Path(scenario.cache.path).expanduser().resolve()
    base = output_dir if output_dir is not None else Path(scenario.campaign.output_dir)
    return (base / CACHE_FILE).resolve()


def resolve_scenario(scenario: Scenario) -> Scenario:
    """`scenario` with each `[[systems]]` entry and the `[simulator]` table as its kind's
    typed options, and every model table as its backend's (all fields, defaults filled in,
    so the resolved scenario a run saves holds them); a kind or field that does not fit is
    a ConfigError of one line (agents/registry.py, simulators/registry.py,
    llm/backends/registry.py)."""
    systems: list[SystemEntry] = list(scenario.systems)
    if not all(isinstance(s, SystemOptions) for s in systems):
        systems = [*resolve_entries(systems)]
    _no_bool_numbers(scenario, systems)
    systems = [
        s if s.model is None else s.model_copy(update={"model": _model(s.model, f"systems[{i}]")})
        for i, s in enumerate(systems)
    ]
    simulator = resolve_simulator(scenario.simulator)
    if simulator.model is not None:
        simulator = simulator.model_copy(
            update={"model": _model(simulator.model, "simulator.model")}
        )
    judge = scenario.judge
    if judge.model is not None:
        judge = judge.model_copy(update={"model": _model(judge.model, "judge.model")})
    model = _model(scenario.model, "model")
    return scenario.model_copy(
        update={"systems": systems, "simulator": simulator, "judge": judge, "model": model}
    )


def _no_bool_numbers(scenario: Scenario, systems: Sequence[SystemEntry]) -> None:
    """A boolean given where a kind's options take a number (`dialogue_window = true`) is
    one line, not the number 1 (config/numbers.py; the typed tables are checked at load)."""
    for i, (given, typed) in enumerate(zip(scenario.systems, systems, strict=True)):
        if not isinstance(given, SystemOptions):
            check_numbers(given.model_dump(exclude_none=True), typed, entry_label(i, given.kind))
    table = scenario.simulator
    where = f'simulator (kind "{table.kind}")'
    check_numbers(table.model_dump(exclude_none=True), resolve_simulator(table), where)


def _model(cfg: ModelConfig, where: str) -> ModelConfig:
    resolved: ModelConfig = resolve_model(cfg, where)
    return resolved


def with_cache_path(scenario: Scenario, output_dir: Path | None) -> Scenario:
    """`scenario` as a campaign runs it: systems resolved (see resolve_scenario) and its
    cache file pinned, for a runner whose output folder overrides the scenario's: every
    CampaignSetup built from it (also in Ray actors) shares the file."""
    scenario = resolve_scenario(scenario)
    cache = scenario.cache.model_copy(update={"path": str(cache_path(scenario, output_dir))})
    return scenario.model_copy(update={"cache": cache})


@dataclass
class CampaignSetup:
    scenario: Scenario
    dataset: Dataset
    prompts: PromptLibrary
    log: CallLog = field(default_factory=CallLog)
    # Every system's tool calls in this process, popped per dialogue when it is stored.
    tool_log: ToolCallLog = field(default_factory=ToolCallLog)
    clients: dict[str, ChatCompletionClient] = field(default_factory=dict)
    scripted_rules: Mapping[str, Rule] | None = None

    def __post_init__(self) -> None:
        self.outage_wait_s = OUTAGE_WAIT_S
        self.scenario = resolve_scenario(self.scenario)
        # What systems' campaign-scoped `prepare` made (or the error it raised), by options.
        self.prepared: dict[str, object] = {}
        self.catalog: Catalog = self.dataset.catalog
        # What systems are given: popularity without the samples' targets, and no user's
        # record past its cut (DESIGN.md §3); built on first use.
        self.system_dataset = deferred_campaign_dataset(
            self.dataset, self.scenario.data, self.campaign_samples
        )
        # Same-titled films are told apart by what the systems see: the whole dataset's
        # counts include the targets, so a bare "Heat" would lean to a target.
        self.grounder = grounder_for(
            self.catalog, self.dataset.domain, popularity=self.system_dataset.popularity
        )
        if self.scripted_rules is None:
            titles = [i.display_title for i in self.catalog]
            # Registered simulators' roles the campaign's default rules lack (a plugin's).
            self.scripted_rules = {
                **scripted_rules_of_simulators(titles, self.dataset.domain),
                **default_scripted_rules(titles, self.dataset.domain),
            }
        # One cache per campaign, shared by every model (their entries never mix: the key
        # names the model). It opens, creating its folder, on the first call.
        enabled = self.scenario.cache.enabled
        self.cache = ResponseCache(cache_path(self.scenario)) if enabled else None

    @classmethod
    def from_scenario(cls, scenario: Scenario, **kwargs: object) -> CampaignSetup:
        prompts_dir = Path(scenario.prompts_dir) if scenario.prompts_dir else None
        dataset = open_dataset(scenario.data)
        # The catalog's SQL columns too, so the library the systems use (and whose hashes
        # the run records) is the one InteRecAgent's tool text is loaded from.
        words = prompt_words(catalog_schema(dataset))
        prompts = PromptLibrary(prompts_dir, domain=dataset.domain, catalog=words)
        return cls(scenario, dataset, prompts, **kwargs)  # type: ignore[arg-type]

    def client(self, cfg: ModelConfig) -> ChatCompletionClient:
        """One client per distinct model config, shared by every dialogue and role."""
        key = model_key(cfg)
        if key not in self.clients:
            client = build_client(
                cfg,
                temperature=self.scenario.protocol.temperature,
                log=self.log,
                scripted_rules=self.scripted_rules,
                cache=self.cache,
                faults=self.scenario.faults,
            )
            if backend_spec(resolve_model(cfg).backend).remote:
                # A server that goes away makes calls wait.
                client = CircuitBreaker(client, outage_wait_s=self.outage_wait_s)
            self.clients[key] = client
        return self.clients[key]

    @property
    def simulator_spec(self) -> SimulatorSpec:
        return simulator_spec(self.scenario.simulator.kind)

    @property
    def simulator_uses_llm(self) -> bool:
        return self.simulator_spec.uses_llm

    def model_configs(self) -> list[ModelConfig]:
        """The distinct models the campaign calls (the agenda simulator and systems without
        an LLM call none)."""
        configs = [self.scenario.simulator_model()] if self.simulator_uses_llm else []
        configs += [
            self.scenario.system_model(s)
            for s in self.scenario.systems
            if system_spec(s.kind).uses_llm
        ]
        if self.scenario.judge.enabled:
            configs.append(self.scenario.judge_model())
        unique = {model_key(c): c for c in configs}
        return list(unique.values())

    def build_system(
        self, cfg: SystemEntry, dialogue_id: str, sample: Sample | None = None
    ) -> Recommender:
        """A fresh system for one dialogue, built by its kind's registered builder; `sample`
        gives a system that uses the user's past its pre-target window (none for a person
        in `chat`)."""
        (options,) = resolve_entries([cfg])  # already typed when taken from self.scenario
        spec = system_spec(options.kind)
        ctx = SystemContext(
            name=options.name,
            dialogue_id=dialogue_id,
            client=self.client(self.scenario.system_model(options)) if spec.uses_llm else None,
            prompts=self.prompts.with_layout(
                self.scenario.layout_for(self.scenario.system_model(options))
            ),
            dataset=self.system_dataset,
            grounder=self.grounder,
            protocol=self.scenario.protocol,
            prepared=self.prepared_for(options),
            history=history_for(spec, sample),
            tool_log=self.tool_log,
        )
        system: Recommender = import_ref(spec.build, spec)(options, ctx)
        return system

    def prepared_for(self, options: SystemOptions) -> object:
        """The spec's `prepare` output for these options, made on first use in this process
        (entries that differ only by name share it); a failure is kept, so every dialogue
        of the system reports it without trying again."""
        spec = system_spec(options.kind)
        if spec.prepare is None:
            return None
        key = options.model_dump_json(exclude={"name"})
        if key not in self.prepared:
            pctx = PrepareContext(self.dataset, self.scenario.data, self.campaign_samples())
            try:
                self.prepared[key] = import_ref(spec.prepare, spec)(options, pctx)
            except Exception as err:
                self.prepared[key] = err
        made = self.prepared[key]
        if isinstance(made, Exception):
            raise made
        return made

    def campaign_samples(self) -> Sequence[Sample]:
        """The campaign's samples as the runner draws them (the sample set, else drawn
        from the seed: deterministic), so a trainer knows which targets to hold out. A
        sample set is read from its file on each pass, one chunk held at a time."""
        path = self.scenario.data.sample_set
        if path:
            expected = (self.dataset.name, self.dataset.fingerprint)
            reader = SampleSetReader(Path(path), self.catalog, dataset=expected)
            data = self.scenario.data
            users = cache(lambda: user_items(self.dataset, data))  # once, not once a chunk

            def prepare(chunk: list[Sample]) -> list[Sample]:
                return with_pre_target(chunk, self.dataset, data, users)

            return SampleSetView(reader, prepare)
        return build_samples(self.dataset, self.scenario.data)

    def build_simulator(
        self,
        sample: Sample,
        dialogue_id: str,
        system_name: str,
        options: SimulatorOptions | None = None,
        **extras: object,
    ) -> UserSimulator:
        """A fresh user for one dialogue, built by its kind's registered builder: the
        scenario's `[simulator]`, or `options` (the person in chat, given `extras`)."""
        opts = options if options is not None else resolve_simulator(self.scenario.simulator)
        spec = simulator_spec(opts.kind)
        model = self.scenario.simulator_model()
        ctx = SimulatorContext(
            sample=sample,
            catalog=self.catalog,
            client=self.client(model) if spec.uses_llm else None,
            prompts=self.prompts.with_layout(self.scenario.layout_for(model)),
            dialogue_id=dialogue_id,
            system_name=system_name,
            extras=extras,
        )
        return spec.build(opts, ctx)

    async def close(self) -> None:
        for client in self.clients.values():
            await client.close()
        if self.cache is not None:
            self.cache.close()
