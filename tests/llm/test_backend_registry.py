"""The backend registry: built-in backends, one-line errors, refusals, the factory's look-up."""

from __future__ import annotations

from typing import Literal

import pytest

from macrs_sim.config import ModelEntry, ModelOptions, OpenAIModel, ScriptedModel, parse_scenario
from macrs_sim.errors import ConfigError
from macrs_sim.llm.accounting import CallLog
from macrs_sim.llm.backends.registry import (
    BackendSpec,
    backend_spec,
    known_backends,
    register_backend,
    resolve_model,
    unregister_backend,
)
from macrs_sim.llm.backends.scripted import SPEC as SCRIPTED
from macrs_sim.llm.factory import build_client, model_identity, sampling_params


class EchoModel(ModelOptions):
    backend: Literal["echo"] = "echo"
    size: int = 1


def test_built_in_backends() -> None:
    assert known_backends() == ["embedded", "openai", "scripted"]
    assert [backend_spec(n).remote for n in known_backends()] == [False, True, False]


def test_built_in_tables_are_typed_at_load_as_before() -> None:
    sc = parse_scenario(
        {"name": "t", "model": {"backend": "scripted"}, "systems": [{"name": "S", "kind": "x"}]}
    )
    assert type(sc.model) is ScriptedModel and resolve_model(sc.model) is sc.model


def test_unknown_backend_is_one_line_naming_the_known_ones() -> None:
    sc = parse_scenario(
        {"name": "t", "model": {"backend": "opnai"}, "systems": [{"name": "S", "kind": "x"}]}
    )
    assert type(sc.model) is ModelEntry
    with pytest.raises(ConfigError) as err:
        resolve_model(sc.model)
    assert str(err.value) == 'model: unknown backend "opnai"; known: embedded, openai, scripted'
    with pytest.raises(ConfigError) as built:
        build_client(sc.model, temperature=0.0, log=CallLog())
    assert str(built.value) == str(err.value)


def test_registered_backend_field_errors_are_one_line() -> None:
    register_backend(BackendSpec("echo", EchoModel, SCRIPTED.build, SCRIPTED.identity))
    try:
        entry = ModelEntry(backend="echo", size="big")  # type: ignore[call-arg]
        with pytest.raises(ConfigError) as err:
            resolve_model(entry, "judge.model")
        assert str(err.value).startswith('judge.model (backend "echo"): size: Input should be')
        with pytest.raises(ConfigError) as err:
            resolve_model(ModelEntry(backend="echo", colour=1))  # type: ignore[call-arg]
        assert str(err.value) == 'model (backend "echo"): unknown field "colour"'
        typed = resolve_model(ModelEntry(backend="echo", size=3))  # type: ignore[call-arg]
        assert typed == EchoModel(size=3)
        # The spec's sampling fields only (none declared): the temperature alone.
        assert sampling_params(typed, 0.5) == {"temperature": 0.5}
    finally:
        unregister_backend("echo")


def test_duplicate_registration_is_refused() -> None:
    with pytest.raises(ValueError, match="backend 'scripted' is already registered"):
        register_backend(SCRIPTED)
    assert backend_spec("scripted") is SCRIPTED


def test_options_must_name_their_backend() -> None:
    with pytest.raises(ValueError, match="need `backend: Literal\\['other'\\]`"):
        register_backend(BackendSpec("other", EchoModel, SCRIPTED.build, SCRIPTED.identity))
    assert "other" not in known_backends()


def test_factory_asks_the_spec() -> None:
    assert model_identity(OpenAIModel(model="qwen")) == "openai:qwen"
    assert sampling_params(OpenAIModel(model="m", max_tokens=9), 0.0) == {
        "temperature": 0.0,
        "max_tokens": 9,
        "seed": 0,
        "structured_outputs": "openai",
    }
