"""The curated public API of ``import macrs_sim``: every name resolves, lazily."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import macrs_sim
from macrs_sim.agents.base import Recommender
from macrs_sim.agents.registry import SystemSpec, register_system
from macrs_sim.analysis.report.full import build_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.campaign.runner import run_campaign, run_campaign_async
from macrs_sim.config import load_scenario
from macrs_sim.data.domain import AttributeHint, Domain, GroundingPolicy
from macrs_sim.data.prepared.result import PrepareResult
from macrs_sim.data.registry import DatasetSpec, PrepareOptions, register_dataset
from macrs_sim.llm.backends.registry import BackendSpec, register_backend
from macrs_sim.rankers.registry import RankerSpec, register_ranker
from macrs_sim.simulators.base import UserSimulator
from macrs_sim.simulators.registry import SimulatorSpec, register_simulator

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_name_resolves_to_its_definition() -> None:
    expected = {
        "run_campaign": run_campaign,
        "run_campaign_async": run_campaign_async,
        "load_scenario": load_scenario,
        "load_run": load_run,
        "build_report": build_report,
        "Recommender": Recommender,
        "UserSimulator": UserSimulator,
        "register_system": register_system,
        # one spec and one registration for each extension point
        "SystemSpec": SystemSpec,
        "SimulatorSpec": SimulatorSpec,
        "register_simulator": register_simulator,
        "BackendSpec": BackendSpec,
        "register_backend": register_backend,
        "RankerSpec": RankerSpec,
        "register_ranker": register_ranker,
        "DatasetSpec": DatasetSpec,
        "register_dataset": register_dataset,
        # what a dataset kind is made of: its options, result and domain
        "PrepareOptions": PrepareOptions,
        "PrepareResult": PrepareResult,
        "Domain": Domain,
        "AttributeHint": AttributeHint,
        "GroundingPolicy": GroundingPolicy,
    }
    assert sorted(macrs_sim.__all__) == sorted(expected)
    for name, value in expected.items():
        assert getattr(macrs_sim, name) is value, name
    assert set(expected) <= set(dir(macrs_sim))


def test_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'run_campain'"):
        macrs_sim.run_campain  # noqa: B018


def test_import_is_cheap_and_loads_nothing_below_it() -> None:
    code = (
        "import sys, macrs_sim; print(sorted(m for m in sys.modules if m.startswith('macrs_sim')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "['macrs_sim']"


def test_package_ships_py_typed() -> None:
    assert (ROOT / "macrs_sim" / "py.typed").is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["macrs_sim"]
