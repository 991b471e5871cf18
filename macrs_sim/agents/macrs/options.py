"""MACRS's `[[systems]]` entry: the paper's ablation switches (§5.2)."""

from __future__ import annotations

from typing import Literal

from macrs_sim.agents.registry import SystemOptions, SystemSpec


class MACRSSystemOptions(SystemOptions):
    kind: Literal["macrs"] = "macrs"
    information_reflection: bool = True
    strategy_reflection: bool = True


SPEC = SystemSpec(
    kind="macrs",
    options=MACRSSystemOptions,
    build="macrs_sim.agents.macrs.build:build",
    scripted_rules="macrs_sim.agents.scripted_rules:macrs_rules",
)
