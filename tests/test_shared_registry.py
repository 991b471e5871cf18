"""macrs_sim/registry.py: what the four registries share, on a table of strings."""

from __future__ import annotations

from importlib.metadata import EntryPoint
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from macrs_sim import registry
from macrs_sim.errors import ConfigError

# An entry point may name a spec or a function returning one.
PLAIN = "plain-spec"


def made() -> str:
    return "made-spec"


class Echo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["echo"]
    size: int = 1

    @field_validator("size")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value < 1:
            raise ValueError("must be at least 1")
        return value


class TwoKinds(BaseModel):
    kind: Literal["echo", "other"]


def test_a_taken_key_is_refused_with_the_registrys_message_or_replaced() -> None:
    table = {"b": "first"}
    with pytest.raises(ValueError, match=r"^ranker kind 'b' is already registered$"):
        registry.add(table, "b", "second", "ranker kind 'b' is already registered")
    assert table == {"b": "first"}
    registry.add(table, "b", "second", duplicate=None)  # the system registry replaces
    registry.add(table, "a", "third", duplicate="never shown")
    assert table == {"b": "second", "a": "third"}


def test_lookup_names_the_known_keys_sorted_or_in_registration_order() -> None:
    table = {"zeta": 1, "alpha": 2, "mid": 3}
    assert registry.lookup(table, "mid", "unused") == 3
    with pytest.raises(ConfigError) as err:
        registry.lookup(table, "beta", "unknown {key!r}; known: {known}")
    assert str(err.value) == "unknown 'beta'; known: alpha, mid, zeta"
    with pytest.raises(ConfigError) as err:
        registry.lookup(table, "beta", 'x: unknown "{key}"; one of {registered}')
    assert str(err.value) == 'x: unknown "beta"; one of zeta, alpha, mid'


def test_lookup_of_an_unhashable_key_is_the_same_one_line_error() -> None:
    with pytest.raises(ConfigError) as err:
        registry.lookup({"a": 1}, ["a"], "unknown {key!r}; known: {known}")  # type: ignore[arg-type]
    assert str(err.value) == "unknown ['a']; known: a"


def test_lookup_of_an_empty_table_names_nothing() -> None:
    with pytest.raises(ConfigError) as err:
        registry.lookup({}, "a", "unknown {key!r}; known: {known}")
    assert str(err.value) == "unknown 'a'; known: "


def test_built_ins_load_before_entry_points_and_a_callable_is_called() -> None:
    group = "macrs_sim.test_group"
    found = [
        EntryPoint("p", f"{__name__}:PLAIN", group),
        EntryPoint("m", f"{__name__}:made", group),
    ]
    asked: list[str] = []

    def entry_points(*, group: str) -> list[EntryPoint]:
        asked.append(group)
        return found

    registered: list[str] = []
    registry.load_specs(registered.append, ["b1", "b2"], group, entry_points)
    assert registered == ["b1", "b2", "plain-spec", "made-spec"]
    assert asked == [group]


def test_builtin_specs_reads_each_modules_spec_in_order() -> None:
    assert registry.builtin_specs([__name__, __name__], name="PLAIN") == [PLAIN, PLAIN]
    with pytest.raises(AttributeError):
        registry.builtin_specs([__name__])  # this module has no SPEC


def test_options_must_name_exactly_their_kind() -> None:
    registry.require_literal(Echo, "kind", "echo", "simulator")
    with pytest.raises(ValueError) as err:
        registry.require_literal(Echo, "kind", "ech", "simulator")
    assert str(err.value) == "options of simulator 'ech' need `kind: Literal['ech']`"
    with pytest.raises(ValueError, match=r"^options of backend 'echo' need `backend: "):
        registry.require_literal(Echo, "backend", "echo", "backend")  # no such field
    with pytest.raises(ValueError, match=r"^options of system 'echo' need"):
        registry.require_literal(TwoKinds, "kind", "echo", "system")  # two kinds, not one


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"kind": "echo", "sise": 2}, 'unknown field "sise"'),
        ({}, 'required field "kind" is missing'),
        ({"kind": "echo", "size": 0}, "size: must be at least 1"),
        (
            {"kind": "echo", "size": "x"},
            "size: Input should be a valid integer, unable to parse string as an integer",
        ),
    ],
)
def test_field_errors_are_one_line(data: dict[str, object], expected: str) -> None:
    with pytest.raises(ValidationError) as err:
        Echo.model_validate(data)
    assert registry.field_error(err.value) == expected


def test_import_ref_imports_now_and_leaves_failures_to_the_caller() -> None:
    assert registry.import_ref(f"{__name__}:made")() == "made-spec"
    with pytest.raises(ModuleNotFoundError):
        registry.import_ref("no_such_module_here:made")
    with pytest.raises(AttributeError):
        registry.import_ref(f"{__name__}:absent")
