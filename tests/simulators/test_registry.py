"""The simulator registry: kinds, one-line errors, refusals."""

from __future__ import annotations

from typing import Literal

import pytest

from macrs_sim.config import SimulatorConfig, parse_scenario
from macrs_sim.errors import ConfigError
from macrs_sim.simulators.agenda_spec import AgendaUserOptions
from macrs_sim.simulators.llm_spec import SPEC as LLM_SPEC
from macrs_sim.simulators.llm_spec import LLMUserOptions
from macrs_sim.simulators.registry import (
    SimulatorOptions,
    SimulatorSpec,
    known_simulator_kinds,
    register_simulator,
    resolve_simulator,
    simulator_spec,
)


def test_built_in_kinds() -> None:
    assert known_simulator_kinds() == ["agenda", "llm", "person"]
    assert [simulator_spec(k).uses_llm for k in ("agenda", "llm", "person")] == [
        False,
        True,
        False,
    ]
    assert simulator_spec("person").prepare is None


def test_todays_tables_resolve_to_the_kinds_options() -> None:
    sc = parse_scenario({"name": "t", "systems": [{"name": "S", "kind": "macrs"}]})
    assert resolve_simulator(sc.simulator) == LLMUserOptions(
        instruction="macrs", profile_people=True, max_leak_retries=2
    )
    agenda = resolve_simulator(SimulatorConfig(kind="agenda", instruction="interecagent"))
    assert isinstance(agenda, AgendaUserOptions) and agenda.instruction == "interecagent"


def test_unknown_kind_is_one_line_naming_the_known_ones() -> None:
    sc = parse_scenario(
        {"name": "t", "simulator": {"kind": "agnda"}, "systems": [{"name": "S", "kind": "macrs"}]}
    )
    with pytest.raises(ConfigError) as err:
        resolve_simulator(sc.simulator)
    assert str(err.value) == 'simulator: unknown kind "agnda"; known: agenda, llm, person'


def test_unknown_field_is_one_line_naming_kind_and_field() -> None:
    with pytest.raises(ConfigError) as err:
        resolve_simulator(SimulatorConfig(kind="llm", instructon="macrs"))  # type: ignore[call-arg]
    assert str(err.value) == 'simulator (kind "llm"): unknown field "instructon"'


def test_todays_field_errors_still_come_at_load() -> None:
    with pytest.raises(ConfigError) as err:
        parse_scenario(
            {
                "name": "t",
                "simulator": {"instruction": "recmind"},
                "systems": [{"name": "S", "kind": "macrs"}],
            },
            "s.toml",
        )
    assert (
        str(err.value) == "s.toml: simulator.instruction: Input should be 'macrs' or 'interecagent'"
    )


def test_duplicate_registration_is_refused() -> None:
    with pytest.raises(ValueError, match="simulator kind 'llm' is already registered"):
        register_simulator(LLM_SPEC)
    assert simulator_spec("llm") is LLM_SPEC


def test_options_must_name_their_kind() -> None:
    class Wrong(SimulatorOptions):
        kind: Literal["other"] = "other"

    spec = SimulatorSpec(kind="mine", options=Wrong, build=LLM_SPEC.build)
    with pytest.raises(ValueError, match="need `kind: Literal\\['mine'\\]`"):
        register_simulator(spec)
    assert "mine" not in known_simulator_kinds()


def test_person_outside_chat_is_one_line() -> None:
    from macrs_sim.interactive.person_spec import PersonOptions, build
    from macrs_sim.protocol import Sample
    from macrs_sim.simulators.registry import SimulatorContext

    sample = Sample(sample_id="s", user_id="u", history=(), target_id="m1")
    ctx = SimulatorContext(sample, None, None, None, "d", "S")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match='kind "person" runs only in `macrs-sim chat`'):
        build(PersonOptions(), ctx)
