"""Regenerate docs/example_report/: a full report from a scripted-backend campaign.

The scripted backend answers by rule, so this needs no model. The rules below give the
systems *synthetic* behaviour shaped like the paper's (MACRS asks first and recommends
after; the single-LLM baseline recommends at once; recommending the target is likelier
for popular targets): the numbers illustrate what a report shows and say nothing about
MACRS itself. The user is the rule-based agenda simulator.

    python docs/make_example_report.py
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from macrs_sim.agents.macrs.schemas import FinalListOutput, PlannerOutput, RecommendOutput
from macrs_sim.agents.single_llm import SingleLLMOutput
from macrs_sim.analysis.report.full import ReportOptions, build_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import load_scenario
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.samples import build_samples
from macrs_sim.llm.scripted import Rule, ScriptedRequest

ACTS: list[Literal["ask", "chat", "recommend"]] = ["ask", "chat", "recommend"]
HERE = Path(__file__).parent
OUT = HERE / "example_report"
# Chance of naming the target when recommending, by popularity bucket.
BUCKET_HIT = {"top 10%": 0.5, "10-20%": 0.4, "20-30%": 0.3, "30-50%": 0.25, "bottom 50%": 0.15}
# Planner act weights (ask, chat, recommend) per turn: ask first, then mostly recommend.
STEPS = {"step1": "Reviewed.", "step2": "Weighed.", "step3": "Chose."}
PLANNER = {1: (0.7, 0.1, 0.2), 2: (0.2, 0.1, 0.7), 3: (0.35, 0.15, 0.5)}


def _rng(req: ScriptedRequest, *salt: object) -> random.Random:
    return random.Random(f"{req.context.dialogue_id}|{req.context.turn}|{salt}")


def make_rules(
    titles: list[str], targets: dict[str, str], buckets: dict[str, str]
) -> dict[str, Rule]:
    rules = default_scripted_rules(titles)

    def sample(req: ScriptedRequest) -> str:
        return str(req.context.dialogue_id).split(":", 1)[1]

    def title(req: ScriptedRequest, bonus: float) -> str:
        hit = _rng(req, "hit").random() < BUCKET_HIT[buckets[sample(req)]] + bonus
        return targets[sample(req)] if hit else _rng(req, "t").choice(titles)

    def planner(req: ScriptedRequest) -> BaseModel:
        ask, chat, rec = PLANNER.get(req.context.turn or 1, PLANNER[3])
        if req.context.system != "MACRS":  # the ablations plan a little less carefully
            ask, rec = ask * 0.8, rec * 1.2
        act = _rng(req, "plan").choices(ACTS, (ask, chat, rec))[0]
        return PlannerOutput(step1="Reviewed.", step2="Weighed.", step3="Chose.", choice=act)

    def recommend(req: ScriptedRequest) -> BaseModel:
        t = title(req, 0.1 if req.context.system == "MACRS" else 0.05)
        return RecommendOutput(item_title=t, response=f"You might enjoy {t}.")

    def single_llm(req: ScriptedRequest) -> BaseModel:
        act = _rng(req, "act").choices(ACTS, (0.15, 0.05, 0.8))[0]
        if act != "recommend":
            return SingleLLMOutput(**STEPS, act=act, item_title="", response="What do you enjoy?")
        t = title(req, -0.05)
        return SingleLLMOutput(**STEPS, act="recommend", item_title=t, response=f"How about {t}?")

    def final_list(req: ScriptedRequest) -> BaseModel:
        schema = req.schema or FinalListOutput
        k = int(schema.model_json_schema()["properties"]["titles"].get("maxItems", 10))
        picks = _rng(req, "final").sample(titles, k)
        if _rng(req, "in-list").random() < 0.3:
            picks[_rng(req, "rank").randrange(k)] = targets[sample(req)]
        return schema(titles=picks)

    # Role names as the systems call them (agents/*: "<kind>.<role>").
    rules |= {"macrs.planner": planner, "macrs.recommend": recommend}
    rules |= {"single_llm.respond": single_llm, "final_list": final_list}
    unknown = {"macrs.planner", "macrs.recommend", "single_llm.respond"} - set(
        default_scripted_rules(titles)
    )
    assert not unknown, f"no such scripted roles: {sorted(unknown)}"  # a renamed role
    return rules


async def main() -> None:
    scenario = load_scenario(HERE / "example_scenario.toml")
    dataset = open_dataset(scenario.data)
    samples = build_samples(dataset, scenario.data)
    title_of = {i.item_id: i.display_title for i in dataset.catalog}
    targets = {s.sample_id: title_of[s.target_id] for s in samples}
    buckets = {s.sample_id: s.bucket or "bottom 50%" for s in samples}
    rules = make_rules(list(title_of.values()), targets, buckets)
    note = (
        "Example only: scripted backend with synthetic behaviour rules "
        "(docs/make_example_report.py) and the agenda user simulator. The numbers "
        "illustrate the report; they say nothing about MACRS."
    )
    with tempfile.TemporaryDirectory() as tmp:
        result = await run_campaign_async(
            scenario, output_dir=Path(tmp), progress=False, scripted_rules=rules
        )
        options = ReportOptions(title="Example report (scripted backend)", extra_notes=(note,))
        report = build_report([load_run(result.run_dir)], OUT, options, lambda r: dataset.catalog)
    print(report)


if __name__ == "__main__":
    asyncio.run(main())
