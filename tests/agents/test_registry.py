"""The system registry: typed options per kind, one-line errors, entry points."""

from __future__ import annotations

import tomllib
from importlib.metadata import EntryPoint
from typing import Any, Literal

import pytest

from macrs_sim.agents import registry
from macrs_sim.agents.baselines.options import SASRecSystemOptions
from macrs_sim.agents.macrs.options import MACRSSystemOptions
from macrs_sim.agents.registry import (
    SystemOptions,
    SystemSpec,
    known_kinds,
    register_system,
    resolve_entries,
    system_spec,
)
from macrs_sim.campaign.setup import resolve_scenario
from macrs_sim.config import SystemEntry, parse_scenario, scenario_to_toml
from macrs_sim.errors import ConfigError

BUILTIN = [
    "http", "interecagent", "itemcf", "macrs", "popularity", "random", "ranker", "recmind",
    "sasrec", "single_llm", "toolrec",
]  # fmt: skip
# The fields a kind needs beyond name and kind.
REQUIRED: dict[str, dict[str, Any]] = {
    "ranker": {"ranker": "popularity"},
    "http": {"url": "http://127.0.0.1:9/crs"},
}


def entries(*systems: dict[str, Any]) -> list[SystemEntry]:
    scenario = parse_scenario({"name": "t", "systems": list(systems)})
    return list(scenario.systems)


def test_every_registered_kind_validates_as_its_own_options() -> None:
    assert known_kinds() == BUILTIN
    for kind in known_kinds():
        (options,) = resolve_entries(entries({"name": "s", "kind": kind, **REQUIRED.get(kind, {})}))
        spec = system_spec(kind)
        assert type(options) is spec.options and options.kind == kind
        assert spec.uses_llm == (
            kind in ("interecagent", "macrs", "recmind", "single_llm", "toolrec")
        )


def test_a_typo_names_the_entry_the_kind_and_the_field() -> None:
    systems = entries(
        {"name": "a", "kind": "random"},
        {"name": "b", "kind": "single_llm"},
        {"name": "c", "kind": "macrs", "informaton_reflection": False},
    )
    with pytest.raises(ConfigError) as err:
        resolve_entries(systems)
    assert str(err.value) == 'systems[2] (kind "macrs"): unknown field "informaton_reflection"'


def test_a_field_of_another_kind_is_refused() -> None:
    with pytest.raises(ConfigError) as err:
        resolve_entries(entries({"name": "p", "kind": "popularity", "strategy_reflection": False}))
    assert str(err.value) == 'systems[0] (kind "popularity"): unknown field "strategy_reflection"'


def test_an_unknown_kind_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError) as err:
        resolve_entries(entries({"name": "x", "kind": "macr"}))
    assert str(err.value) == 'systems[0]: unknown kind "macr"; known: ' + ", ".join(BUILTIN)


def test_wrong_values_and_ranker_params_are_one_line() -> None:
    with pytest.raises(ConfigError) as err:
        resolve_entries(entries({"name": "m", "kind": "macrs", "strategy_reflection": "maybe"}))
    assert str(err.value).startswith('systems[0] (kind "macrs"): strategy_reflection: Input should')
    with pytest.raises(ConfigError) as err:
        resolve_entries(entries({"name": "s", "kind": "sasrec", "params": {"dimm": 8}}))
    assert (
        str(err.value)
        == 'systems[0] (kind "sasrec"): sasrec parameter dimm: Extra inputs are not permitted'
    )
    with pytest.raises(ConfigError) as err:
        resolve_entries(entries({"name": "r", "kind": "ranker"}))
    assert str(err.value) == 'systems[0] (kind "ranker"): required field "ranker" is missing'


def test_the_resolved_scenario_holds_every_option() -> None:
    scenario = parse_scenario(
        {"name": "t", "systems": [{"name": "noSR", "kind": "macrs", "strategy_reflection": False},
                                  {"name": "S", "kind": "sasrec", "params": {"dim": 8}}]}
    )  # fmt: skip
    resolved = resolve_scenario(scenario)
    assert isinstance(resolved.systems[0], MACRSSystemOptions)
    assert isinstance(resolved.systems[1], SASRecSystemOptions)
    saved = tomllib.loads(scenario_to_toml(resolved))
    assert saved["systems"] == [
        {"name": "noSR", "kind": "macrs", "information_reflection": True,
         "strategy_reflection": False},
        {"name": "S", "kind": "sasrec", "params": {"dim": 8}},
    ]  # fmt: skip
    # Loading the saved file again gives the same options.
    again = resolve_scenario(parse_scenario(saved))
    assert again.systems == resolved.systems


class EchoOptions(SystemOptions):
    kind: Literal["echo"] = "echo"
    loud: bool = False


def test_a_kind_needs_its_literal() -> None:
    with pytest.raises(ValueError, match="need `kind: Literal\\['other'\\]`"):
        register_system(SystemSpec(kind="other", options=EchoOptions, build="x:y"))


SPEC = SystemSpec(kind="echo", options=EchoOptions, build="tests.agents.third_party:FirstUnseen")


def test_outside_packages_register_through_the_entry_point_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    found = [EntryPoint("echo", "tests.agents.test_registry:SPEC", registry.ENTRY_POINT_GROUP)]
    groups: list[str] = []

    def fake_entry_points(*, group: str) -> list[EntryPoint]:
        groups.append(group)
        return found

    monkeypatch.setattr(registry, "_SPECS", {})
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "entry_points", fake_entry_points)
    assert "echo" in known_kinds() and "macrs" in known_kinds()
    (options,) = resolve_entries(entries({"name": "e", "kind": "echo", "loud": True}))
    assert options == EchoOptions(name="e", loud=True)
    known_kinds()
    assert groups == ["macrs_sim.systems"]  # loaded once


def test_an_old_runs_single_llm_entry_still_loads() -> None:
    # Resolved scenarios saved before the registry held both switches, true, for every kind.
    old = {"name": "s", "kind": "single_llm", "information_reflection": True}
    (options,) = resolve_entries(entries({**old, "strategy_reflection": True}))
    # free_chat: added later, off unless asked (InteRecAgent's free-chat LLM row).
    assert options.model_dump(exclude_none=True) == {
        "name": "s", "kind": "single_llm", "free_chat": False,
    }  # fmt: skip
    with pytest.raises(ConfigError, match='unknown field "strategy_reflection"'):
        resolve_entries(entries({**old, "strategy_reflection": False}))
