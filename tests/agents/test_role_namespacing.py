"""Roles are namespaced by kind ("macrs.planner"), and that renamed nothing but the roles.

`fixtures/scripted_call_roles_before_namespacing.json` holds every (dialogue, system, role,
turn, count) of model calls the fixed scripted campaign of tests/agents/fingerprint.py
stored before the rename (written by the code of that time); mapped through RENAMED, it is
exactly what the campaign stores now. Its dialogues' fingerprints are unchanged
(test_registry_fingerprint.py), so the rename changed the role strings and nothing else.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from macrs_sim.agents.registry import known_kinds, register_system, scripted_rules_of_all
from macrs_sim.agents.scripted_rules import macrs_rules, single_llm_rules
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.store import RunStore
from tests.agents.fingerprint import fixed_scenario

BEFORE = Path(__file__).parent / "fixtures" / "scripted_call_roles_before_namespacing.json"
RENAMED = {
    "ask": "macrs.ask",
    "chat": "macrs.chat",
    "recommend": "macrs.recommend",
    "planner": "macrs.planner",
    "info_reflector": "macrs.info_reflector",
    "strategy_reflector": "macrs.strategy_reflector",
    "single_llm": "single_llm.respond",
}
SHARED = {"final_list", "user", "opening", "target_profile"}


async def test_the_fixed_campaign_stores_the_same_calls_under_the_new_role_names(
    tmp_path: Path,
) -> None:
    before = json.loads(BEFORE.read_text())
    assert {row[2] for row in before} == set(RENAMED) | SHARED
    catalog = demo_dataset(DataConfig()).catalog
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    result = await run_campaign_async(
        fixed_scenario(path), output_dir=tmp_path / "runs", progress=False, report=False
    )
    with RunStore.open(result.store_path) as store:
        calls = store.read_calls()
    now = Counter((str(c.dialogue_id), c.system, c.role, c.turn) for c in calls)
    mapped = {(d, s, RENAMED.get(r, r), t): n for d, s, r, t, n in before}
    assert dict(now) == mapped
    assert sum(now.values()) == 688


def test_every_built_in_rule_is_namespaced_by_its_kind() -> None:
    assert set(macrs_rules(["Heat"])) == {v for v in RENAMED.values() if v.startswith("macrs.")}
    assert set(single_llm_rules(["Heat"])) == {"single_llm.respond", "single_llm.free_chat"}
    merged = scripted_rules_of_all(["Heat"])
    assert {"macrs.planner", "single_llm.respond", "interecagent.planner"} <= set(merged)
    assert all(role.split(".", 1)[0] in known_kinds() for role in merged)


def test_a_rule_outside_its_kinds_namespace_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    from macrs_sim.agents import registry

    registry.known_kinds()  # built-ins loaded before the copy below
    monkeypatch.setattr(registry, "_SPECS", dict(registry._SPECS))
    rules = "tests.agents.test_role_namespacing:clashing_rules"
    register_system(replace(registry.system_spec("random"), scripted_rules=rules))
    with pytest.raises(ValueError) as err:
        scripted_rules_of_all(["Heat"])
    assert str(err.value) == "scripted role 'planner' of system 'random': name it random.<role>"


def clashing_rules(titles: list[str]) -> dict[str, object]:
    return {"planner": lambda req: "x"}
