"""macrs-sim: simulated conversational-recommendation campaigns with LLM agents.

The curated public API is imported lazily (PEP 562 module ``__getattr__``), so
``import macrs_sim`` stays cheap and no layer imports a higher one at import time.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "run_campaign": "macrs_sim.campaign.runner",
    "run_campaign_async": "macrs_sim.campaign.runner",
    "load_scenario": "macrs_sim.config",
    "load_run": "macrs_sim.analysis.runs.load",
    "build_report": "macrs_sim.analysis.report.full",
    "Recommender": "macrs_sim.agents.base",
    "UserSimulator": "macrs_sim.simulators.base",
    "register_system": "macrs_sim.agents.registry",
    "SystemSpec": "macrs_sim.agents.registry",
    "register_ranker": "macrs_sim.rankers.registry",
    "RankerSpec": "macrs_sim.rankers.registry",
    "register_simulator": "macrs_sim.simulators.registry",
    "SimulatorSpec": "macrs_sim.simulators.registry",
    "register_backend": "macrs_sim.llm.backends.registry",
    "BackendSpec": "macrs_sim.llm.backends.registry",
    "register_dataset": "macrs_sim.data.registry",
    "DatasetSpec": "macrs_sim.data.registry",
    "PrepareOptions": "macrs_sim.data.registry",
    "PrepareResult": "macrs_sim.data.prepared.result",
    "Domain": "macrs_sim.data.domain",
    "AttributeHint": "macrs_sim.data.domain",
    "GroundingPolicy": "macrs_sim.data.domain",
}

__all__ = [
    "AttributeHint",
    "BackendSpec",
    "DatasetSpec",
    "Domain",
    "GroundingPolicy",
    "PrepareOptions",
    "PrepareResult",
    "RankerSpec",
    "Recommender",
    "SimulatorSpec",
    "SystemSpec",
    "UserSimulator",
    "build_report",
    "load_run",
    "load_scenario",
    "register_backend",
    "register_dataset",
    "register_ranker",
    "register_simulator",
    "register_system",
    "run_campaign",
    "run_campaign_async",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'macrs_sim' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
