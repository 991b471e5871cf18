"""Which runs may share one table: `compare` puts like with like (same protocol) only.

A run's protocol, as far as comparing numbers goes, is:

- `protocol.max_turns`, `protocol.final_list_k`, `protocol.max_items_per_turn` from its
  `scenario.resolved.toml` (a field the file lacks has the default it ran with, except
  `max_items_per_turn`: runs made before it existed had no limit, "not recorded");
- `simulator.kind` and `simulator.model`: the simulator's model config (its own, else the
  scenario's `[model]`) as backend, model name and redacted base URL, never a key; a
  rule-based simulator has no model;
- `system_history.<system>`: what each system was given of the user's past (store meta
  `system_history`), compared for a system name that several runs share. A run made before
  this was recorded counts as "not recorded", which matches "none" (a system that uses no
  history ignored what older runs passed it) but not "pre-target" (older runs passed the
  simulator's genre-filtered list, not the pre-target window);
- `prompts.<template>`: the sha256 of each prompt file (store meta `prompt_sha256`),
  compared for a template several runs recorded.

Runs that differ in any of these are refused with one line naming each field and its value
per run (`refusal`), or split into groups that agree (`group_runs`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from macrs_sim.analysis.runs.load import RunData
from macrs_sim.config import ProtocolConfig, Scenario, SimulatorConfig
from macrs_sim.llm.backends.registry import stored_backend
from macrs_sim.simulators.registry import stored_simulator

PROTOCOL_FIELDS = ("max_turns", "final_list_k", "max_items_per_turn")
# Fields every run has (the rest are per system or per prompt file); a group is headed by them.
CORE_FIELDS = (*(f"protocol.{f}" for f in PROTOCOL_FIELDS), "simulator.kind", "simulator.model")
HISTORY_PREFIX = "system_history."
PROMPT_PREFIX = "prompts."
NOT_RECORDED = "not recorded"
HISTORY_META = "system_history"
PROMPTS_META = "prompt_sha256"
_HASH_CHARS = 12
# A stored model table without `backend` is the scenario's default model.
_DEFAULT_BACKEND = Scenario.model_fields["model"].get_default(call_default_factory=True).backend


@dataclass(frozen=True)
class Difference:
    """One field on which some runs disagree, with its value in each run that has it."""

    field: str
    values: tuple[tuple[str, str], ...]  # (run label, value)

    def render(self) -> str:
        return f"{self.field} ({', '.join(f'{run}: {value}' for run, value in self.values)})"


@dataclass(frozen=True)
class RunGroup:
    """Runs that agree on every field: one table, tests within the group only."""

    runs: tuple[RunData, ...]
    shared: tuple[tuple[str, str], ...]  # (field, value) of CORE_FIELDS

    def heading(self) -> str:
        return ", ".join(f"{field} = {value}" for field, value in self.shared)


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def _model_identity(model: Mapping[str, Any]) -> str:
    """The backend spec's `describe` of the stored table; a backend without one, or no longer
    registered (an outside package gone), by its name."""
    backend = str(model.get("backend", _DEFAULT_BACKEND))
    spec = stored_backend(backend)  # a clash of two packages' kinds: still described
    if spec is None or spec.describe is None:
        return _one_line(backend)
    return _one_line(spec.describe(model))


def _simulator(scenario: Mapping[str, Any]) -> dict[str, str]:
    simulator = scenario.get("simulator", {})
    kind = str(simulator.get("kind", SimulatorConfig().kind))
    spec = stored_simulator(kind)
    if spec is not None and spec.no_model is not None:  # no model to compare
        return {"simulator.kind": kind, "simulator.model": spec.no_model}
    model = simulator.get("model") or scenario.get("model") or {}
    return {"simulator.kind": kind, "simulator.model": _model_identity(model)}


# A run made before `max_items_per_turn` existed had no limit (InteRecAgent showed up to
# 20 items a turn): it matches only another such run, never a limited one.
UNLIMITED_BEFORE = {"max_items_per_turn": "not recorded (no limit)"}


def _protocol(scenario: Mapping[str, Any]) -> dict[str, str]:
    given = scenario.get("protocol", {})
    defaults = ProtocolConfig()

    def value(f: str) -> str:
        if f in given:
            return str(given[f])
        return UNLIMITED_BEFORE.get(f) or str(getattr(defaults, f))

    return {f"protocol.{f}": value(f) for f in PROTOCOL_FIELDS}


def _json_object(meta: Mapping[str, str], key: str) -> dict[str, Any]:
    try:
        value = json.loads(meta[key])
    except (KeyError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def profile(run: RunData) -> dict[str, str]:
    """Field -> value for everything that must match (see the module)."""
    out = _protocol(run.scenario) | _simulator(run.scenario)
    history = _json_object(run.meta, HISTORY_META)
    for name in run.system_names:
        out[HISTORY_PREFIX + name] = _one_line(history.get(name, NOT_RECORDED))
    for name, sha in sorted(_json_object(run.meta, PROMPTS_META).items()):
        out[PROMPT_PREFIX + name] = _one_line(sha)[:_HASH_CHARS]
    return out


def agree(field: str, a: str, b: str) -> bool:
    if a == b:
        return True
    return field.startswith(HISTORY_PREFIX) and {a, b} == {NOT_RECORDED, "none"}


def _compatible(p: Mapping[str, str], q: Mapping[str, str]) -> bool:
    return all(agree(f, p[f], q[f]) for f in p.keys() & q.keys())


def run_labels(runs: Sequence[RunData]) -> list[str]:
    """A run's scenario name, or its directory where two runs share a name."""
    names = [r.name for r in runs]
    dirs = [r.path.name for r in runs]
    return [
        (n if names.count(n) == 1 else d if dirs.count(d) == 1 else str(r.path))
        for r, n, d in zip(runs, names, dirs, strict=True)
    ]


def differences(runs: Sequence[RunData]) -> list[Difference]:
    """Every field on which two of the runs disagree, in profile order."""
    profiles = [profile(r) for r in runs]
    labels = run_labels(runs)
    fields = list(dict.fromkeys(f for p in profiles for f in p))
    out = []
    for field in fields:
        values = [
            (label, p[field]) for label, p in zip(labels, profiles, strict=True) if field in p
        ]
        if any(not agree(field, a, b) for _, a in values for _, b in values):
            out.append(Difference(field, tuple(values)))
    return out


def refusal(found: Sequence[Difference]) -> str:
    """The one-line error for runs whose protocols differ."""
    return (
        f"runs differ in {', '.join(d.render() for d in found)}: compare like with like, "
        "or pass --split to get one table per protocol"
    )


def group_runs(runs: Sequence[RunData]) -> list[RunGroup]:
    """Runs in groups that agree on every field, in the order each group's first run came.

    A run joins the first group it agrees with run by run ("not recorded" matches "none",
    so agreement is checked against every member, not one representative).
    """
    members: list[list[tuple[RunData, dict[str, str]]]] = []
    for run in runs:
        p = profile(run)
        home = next((g for g in members if all(_compatible(p, q) for _, q in g)), None)
        if home is None:
            members.append([(run, p)])
        else:
            home.append((run, p))
    return [
        RunGroup(tuple(r for r, _ in g), tuple((f, g[0][1][f]) for f in CORE_FIELDS))
        for g in members
    ]
