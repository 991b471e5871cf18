"""The systems that ship with macrs-sim (the registry registers them on first use)."""

from __future__ import annotations

from macrs_sim.agents.baselines.options import BASELINE_SPECS
from macrs_sim.agents.http_crs.options import SPEC as HTTP
from macrs_sim.agents.interecagent.spec import SPEC as INTERECAGENT
from macrs_sim.agents.macrs.options import SPEC as MACRS
from macrs_sim.agents.recmind.spec import SPEC as RECMIND
from macrs_sim.agents.registry import SystemSpec
from macrs_sim.agents.single_llm.options import SPEC as SINGLE_LLM
from macrs_sim.agents.toolrec.spec import SPEC as TOOLREC

BUILTIN_SPECS: tuple[SystemSpec, ...] = (
    MACRS, SINGLE_LLM, INTERECAGENT, RECMIND, TOOLREC, *BASELINE_SPECS, HTTP,
)  # fmt: skip
