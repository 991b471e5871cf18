"""Scripted answers for every role, so the scripted backend runs whole campaigns.

Assembled here, above the layers that own the roles (agents, simulators, judge), so
none of them imports another to build the full set.
"""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.agents.registry import scripted_rules_of_all
from macrs_sim.agents.scripted_rules import final_list_rule
from macrs_sim.judge.scripted import judge_scripted_rules
from macrs_sim.llm.scripted import Rule
from macrs_sim.simulators.target_profile import TargetKeywords


def default_scripted_rules(catalog_titles: Sequence[str]) -> dict[str, Rule]:
    """Every registered system's rules, the shared fallback list, the simulator and judge."""
    titles = list(catalog_titles)
    return {
        **scripted_rules_of_all(titles),
        "final_list": final_list_rule(titles),
        "user": lambda req: "Hmm, not quite. Something lighter, please.",
        "opening": lambda req: "Hi! I'd like a movie for tonight, something fun.",
        "target_profile": lambda req: TargetKeywords(
            keywords=["mood: light-hearted", "feature: ensemble cast"]
        ),
        **judge_scripted_rules(titles),
    }
