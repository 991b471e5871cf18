"""Scripted answers for every role, so the scripted backend runs whole campaigns.

Assembled here, above the layers that own the roles (agents, simulators, judge), so
none of them imports another to build the full set.
"""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.agents.registry import scripted_rules_of_all
from macrs_sim.agents.scripted_rules import final_list_rule
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.judge.scripted import judge_scripted_rules
from macrs_sim.llm.scripted import Rule
from macrs_sim.simulators.llm_spec import scripted_opening
from macrs_sim.simulators.target_profile import TargetKeywords


def default_scripted_rules(
    catalog_titles: Sequence[str], domain: Domain = MOVIES
) -> dict[str, Rule]:
    """Every registered system's rules, the shared fallback list, the simulator and judge,
    their texts in the dataset's `domain`'s words."""
    titles = list(catalog_titles)
    return {
        **scripted_rules_of_all(titles, domain),
        "final_list": final_list_rule(titles),
        "user": lambda req: "Hmm, not quite. Something lighter, please.",
        "opening": lambda req: scripted_opening(domain),
        "target_profile": lambda req: TargetKeywords(
            keywords=["mood: light-hearted", "feature: ensemble cast"]
        ),
        **judge_scripted_rules(titles, domain),
    }
