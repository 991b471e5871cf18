"""Three scripted run directories, the same at every generation, for the golden outputs.

- `a`: MACRS, the single-LLM baseline and ToolRec (a tool-using system: the popularity base
  ranker and the stand-in retriever, so nothing is trained) over 12 demo-dataset samples drawn
  4 per popularity bucket, 5 turns. Scripted rules make some dialogues succeed (the system
  recommends the target) and some end in error (a rule raises mid-dialogue).
- `b`: the same scenario (same samples, same protocol) under another name and seed, with other
  samples succeeding and failing, so `compare a b` pairs them.
- `c`: another protocol (3 turns, one system), so `compare a c` is refused and `--split` splits.

A campaign's run directory is named after its start time: each is renamed to a fixed name
(`golden-a` ...), so the names the outputs show never vary. Nothing here reads the clock.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from macrs_sim.agents.macrs.schemas import RecommendOutput
from macrs_sim.agents.single_llm.system import SingleLLMOutput
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.samples import build_samples
from macrs_sim.llm.scripted import Rule, ScriptedRequest

BUCKETS = [0.2, 0.5, 1.0]
TOOLREC = {"base_ranker": "popularity", "retriever": "ranker", "max_rounds": 3}
SYSTEMS: list[dict[str, Any]] = [
    {"name": "MACRS", "kind": "macrs"},
    {"name": "single-LLM", "kind": "single_llm"},
    {"name": "ToolRec", "kind": "toolrec", **TOOLREC},
]


@dataclass(frozen=True)
class Variant:
    """Which samples (by index in the drawn set) succeed, at which turn, and which end in error."""

    name: str
    seed: int
    max_turns: int
    systems: tuple[int, ...]  # indices into SYSTEMS
    macrs_hits: dict[int, int]  # sample index -> turn MACRS recommends the target
    single_hits: dict[int, int]
    errors: dict[int, tuple[str, int]]  # sample index -> (role that raises, at which turn)


VARIANTS = {
    "a": Variant(
        "golden-a", 1, 5, (0, 1, 2),
        macrs_hits={0: 2, 3: 3, 5: 2, 8: 4, 10: 5},
        single_hits={0: 1, 4: 2, 8: 3},
        errors={2: ("macrs.planner", 3), 7: ("single_llm.respond", 2), 11: ("user", 4)},
    ),
    "b": Variant(
        "golden-b", 2, 5, (0, 1, 2),
        macrs_hits={0: 2, 1: 2, 3: 4, 6: 3, 9: 2, 10: 3},
        single_hits={4: 1, 8: 2},
        errors={5: ("macrs.planner", 2)},
    ),
    "c": Variant(
        "golden-c", 3, 3, (0,),
        macrs_hits={1: 2, 4: 3},
        single_hits={},
        errors={6: ("user", 2)},
    ),
}  # fmt: skip


def scenario(v: Variant) -> Scenario:
    data = {"dataset": "demo", "sampling": "popularity", "popularity_buckets": BUCKETS,
            "per_bucket": 4, "history_len": 5, "min_history": 3, "seed": 0}  # fmt: skip
    return parse_scenario(
        {
            "name": v.name,
            "seed": v.seed,
            "model": {"backend": "scripted"},
            "data": data,
            "protocol": {"max_turns": v.max_turns, "final_list_k": 10},
            "campaign": {"concurrency": 1},
            "cache": {"enabled": False},
            "systems": [SYSTEMS[i] for i in v.systems],
        }
    )


def _wrap(usual: Rule, pick: Callable[[int, int], BaseModel | None], index: dict[str, int]) -> Rule:
    """`usual`, except where `pick(sample index, turn)` answers (or raises)."""

    def rule(req: ScriptedRequest) -> BaseModel | str:
        ctx = req.context
        sample = str(ctx.dialogue_id).split(":", 1)[-1]
        if sample in index and ctx.turn is not None:
            out = pick(index[sample], ctx.turn)
            if out is not None:
                return out
        return usual(req)

    return rule


def rules_for(v: Variant, sc: Scenario) -> dict[str, Rule]:
    dataset = demo_dataset(sc.data)
    samples = build_samples(dataset, sc.data)
    index = {s.sample_id: n for n, s in enumerate(samples)}
    title = {n: dataset.catalog[s.target_id].display_title for n, s in enumerate(samples)}
    rules = default_scripted_rules([i.display_title for i in dataset.catalog])

    def macrs(n: int, turn: int) -> BaseModel | None:
        hit = v.macrs_hits.get(n) == turn
        return RecommendOutput(item_title=title[n], response="This one!") if hit else None

    def single(n: int, turn: int) -> BaseModel | None:
        if v.single_hits.get(n) != turn:
            return None
        return SingleLLMOutput(step1="-", step2="-", step3="-", act="recommend",
                               item_title=title[n], response="Try this.")  # fmt: skip

    rules["macrs.recommend"] = _wrap(rules["macrs.recommend"], macrs, index)
    rules["single_llm.respond"] = _wrap(rules["single_llm.respond"], single, index)
    for role in {role for role, _ in v.errors.values()}:

        def boom(n: int, turn: int, role: str = role) -> BaseModel | None:
            if v.errors.get(n) == (role, turn):
                raise RuntimeError(f"scripted fault in {role}")
            return None

        rules[role] = _wrap(rules[role], boom, index)
    return rules


async def _build(v: Variant, root: Path) -> Path:
    sc = scenario(v)
    result = await run_campaign_async(
        sc, output_dir=root / "campaigns", progress=False, scripted_rules=rules_for(v, sc),
        report=False,
    )  # fmt: skip
    assert result.status == "finished", result.status
    return result.run_dir.rename(root / v.name)


def build_runs(root: Path) -> dict[str, Path]:
    """The three run directories under `root` (made empty first), by key a, b, c."""
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    runs = {key: asyncio.run(_build(v, root)) for key, v in VARIANTS.items()}
    shutil.rmtree(root / "campaigns")
    return runs
