"""The systems that ship with macrs-sim, registered when the registry is first used."""

from __future__ import annotations

from macrs_sim.agents.baselines.options import BASELINE_SPECS
from macrs_sim.agents.macrs.options import SPEC as MACRS
from macrs_sim.agents.registry import register_system
from macrs_sim.agents.single_llm.options import SPEC as SINGLE_LLM

for _spec in (MACRS, SINGLE_LLM, *BASELINE_SPECS):
    register_system(_spec)
