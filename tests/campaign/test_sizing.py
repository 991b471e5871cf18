"""Sizing a campaign to fill its own servers: the rule and the one-line warning."""

from __future__ import annotations

from typing import Any

import pytest

from macrs_sim.agents.registry import system_spec
from macrs_sim.campaign.sizing import recommended_concurrency, sizing_warning
from macrs_sim.config import Scenario, parse_scenario

GPU = {"backend": "openai", "model": "Org/M-8B", "base_url": "http://gpu:8000/v1"}


def scenario(model: dict[str, Any], concurrency: int = 4, **extra: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "size",
            "model": model,
            "campaign": {"concurrency": concurrency},
            "systems": extra.pop("systems", [{"name": "MACRS", "kind": "macrs"}]),
            **extra,
        }
    )


@pytest.mark.parametrize(
    ("slots", "kind", "expected"),
    [
        (256, "macrs", 183),
        (28, "macrs", 20),
        (512, "macrs", 366),
        (1, "macrs", 1),
        (64, "single_llm", 64),
    ],
)
def test_recommended_concurrency(slots: int, kind: str, expected: int) -> None:
    assert recommended_concurrency(slots, system_spec(kind).calls_in_flight) == expected


def test_the_defaults_against_an_h100_sized_endpoint_warn_with_the_numbers() -> None:
    sc = scenario({**GPU, "max_concurrency": 256})
    assert sizing_warning(sc) == (
        "campaign.concurrency = 4 keeps at most 12 calls in flight, but model Org/M-8B takes "
        "256 (256 per endpoint x 1 endpoint): its server will mostly idle; set "
        "campaign.concurrency = 183 to fill it (256 / ~1.4 calls in flight per MACRS dialogue)"
    )


def test_endpoints_add_up() -> None:
    urls = [f"http://gpu{i}:8000/v1" for i in range(4)]
    pool = {"backend": "openai", "model": "m", "base_urls": urls, "max_concurrency": 64}
    warning = sizing_warning(scenario(pool, concurrency=80))
    assert warning is not None
    assert "at most 240 calls" in warning and "takes 256 (64 per endpoint x 4 endpoints)" in warning
    assert "set campaign.concurrency = 183 " in warning
    assert sizing_warning(scenario(pool, concurrency=86)) is None  # 86 x 3 = 258 >= 256


def test_no_warning_when_the_campaign_can_fill_the_endpoint() -> None:
    assert sizing_warning(scenario(GPU)) is None  # 8 per endpoint, 4 x 3 = 12 at most
    assert sizing_warning(scenario({**GPU, "max_concurrency": 256}, concurrency=183)) is None


def test_hosted_apis_and_local_models_never_warn() -> None:
    hosted = {"backend": "openai", "model": "gpt-4o-mini", "max_concurrency": 500}
    assert sizing_warning(scenario(hosted)) is None
    assert sizing_warning(scenario({"backend": "scripted"})) is None


def test_single_llm_dialogues_make_one_call_at_a_time() -> None:
    sc = scenario(
        {**GPU, "max_concurrency": 16}, concurrency=8, systems=[{"name": "L", "kind": "single_llm"}]
    )
    warning = sizing_warning(sc)
    assert warning is not None and warning.startswith(
        "campaign.concurrency = 8 keeps at most 8 calls in flight"
    )
    assert warning.endswith(
        "set campaign.concurrency = 16 to fill it (16 / ~1 calls in flight per single-LLM dialogue)"
    )


def test_a_system_on_its_own_server_is_sized_on_its_own() -> None:
    sim_only = {**GPU, "base_url": "http://sim:8000/v1", "max_concurrency": 4}
    sc = scenario(
        {"backend": "scripted"},
        concurrency=4,
        simulator={"model": sim_only},
        systems=[{"name": "MACRS", "kind": "macrs", "model": {**GPU, "max_concurrency": 64}}],
    )
    warning = sizing_warning(sc)
    assert warning is not None and "takes 64" in warning  # the simulator's 4 are filled


@pytest.mark.parametrize("kind", ["interecagent", "recmind", "toolrec", "macrs", "single_llm"])
def test_every_llm_system_is_sized_from_its_spec(kind: str) -> None:
    """Was a KeyError for every kind but macrs and single_llm (a table keyed by kind)."""
    load = system_spec(kind).calls_in_flight
    sc = scenario({**GPU, "max_concurrency": 256}, systems=[{"name": "S", "kind": kind}])
    warning = sizing_warning(sc)
    assert warning is not None
    assert f"keeps at most {4 * load.peak} calls in flight" in warning
    assert f"per {system_spec(kind).display_name} dialogue" in warning


def test_a_system_without_a_model_beside_a_served_one_is_not_sized() -> None:
    systems = [
        {"name": "remote", "kind": "http", "url": "http://127.0.0.1:9/crs"},
        {"name": "L", "kind": "single_llm"},
    ]
    sc = scenario({**GPU, "max_concurrency": 16}, concurrency=8, systems=systems)
    warning = sizing_warning(sc)
    assert warning is not None and "per single-LLM dialogue" in warning


def test_a_kind_that_declares_nothing_is_one_call_at_a_time() -> None:
    from macrs_sim.agents.registry import CallsInFlight, SystemSpec

    spec = SystemSpec(kind="x", options=object, build="m:f")  # type: ignore[arg-type]
    assert spec.calls_in_flight == CallsInFlight(peak=1, mean=1.0)
    with pytest.raises(ValueError, match="peak >= 1"):
        CallsInFlight(peak=2, mean=3.0)
