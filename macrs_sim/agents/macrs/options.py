"""MACRS's `[[systems]]` entry: the paper's ablation switches (§5.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from macrs_sim.agents.registry import CallsInFlight, SystemOptions, SystemSpec


class MACRSSystemOptions(SystemOptions):
    kind: Literal["macrs"] = "macrs"
    # Information-level reflection: the user profile (current demand, browsing history).
    information_reflection: bool = True
    # Strategy-level reflection: after a rejection, suggestions and experiences for the
    # responders and the planner (§3.3); off: the paper's "w/o SR" ablation.
    strategy_reflection: bool = True


def ablation_label(options: Mapping[str, Any]) -> str:
    """The paper's names for the ablations (Table 1): full, w/o IR, w/o SR, w/o SR+IR."""
    ir = options.get("information_reflection", True)
    sr = options.get("strategy_reflection", True)
    if ir and sr:
        return "full"
    return {(False, True): "w/o IR", (True, False): "w/o SR"}.get((ir, sr), "w/o SR+IR")


SPEC = SystemSpec(
    kind="macrs",
    options=MACRSSystemOptions,
    build="macrs_sim.agents.macrs.build:build",
    scripted_rules="macrs_sim.agents.scripted_rules:macrs_rules",
    # The three responders of a turn at once; 1.4 on average (llm/sizing's note).
    calls_in_flight=CallsInFlight(peak=3, mean=1.4),
    label="MACRS",
    in_default_chat=True,
    variant_label="macrs_sim.agents.macrs.options:ablation_label",
)
