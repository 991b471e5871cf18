"""A bad generation leaves its case out for every system; a system that fails on a case
scores 0 there and the evaluation goes on (through the API, the scripted model's rules
swapped per case)."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.evaluation.interecagent.requests import ROLE_PREFIX
from macrs_sim.evaluation.interecagent.run import OneTurnSettings, run_one_turn
from macrs_sim.evaluation.interecagent.schemas import GeneratedConversation, GeneratedMessage
from macrs_sim.evaluation.interecagent.scripted import one_turn_scripted_rules
from macrs_sim.llm.scripted import ScriptedChatCompletionClient, ScriptedRequest
from tests.evaluation.interecagent.fixture_data import write_database

INSTRUCTION = "Please give me 2 recommendations based on the chat history."


async def test_bad_generations_and_a_failing_system_cost_one_case_each(tmp_path: Path) -> None:
    rules = one_turn_scripted_rules(2, INSTRUCTION)
    generate, plan = rules[ROLE_PREFIX + "retrieval"], rules["interecagent.planner"]

    def generator(req: ScriptedRequest) -> object:
        user = req.context.dialogue_id
        if user == "c-1":  # only the assistant speaks: no request to ask
            return GeneratedConversation(messages=[GeneratedMessage(role="Assistant", text="Hi")])
        if user == "c-2":  # never valid JSON for the schema, through every retry
            return "I cannot do that."
        return generate(req)

    def planner(req: ScriptedRequest) -> object:
        if req.context.dialogue_id == "c-3":
            raise RuntimeError("planner crashed")
        return plan(req)

    rules |= {ROLE_PREFIX + "retrieval": generator, "interecagent.planner": planner}  # type: ignore[dict-item]
    client = ScriptedChatCompletionClient(rules)
    settings = OneTurnSettings(str(write_database(tmp_path)), "retrieval", n=3, k=2,
                               baselines=("popularity",))  # fmt: skip
    result = await run_one_turn(
        settings, client, InteRecAgentOptions(ranker="popularity"),
        cache_dir=tmp_path / "models", use_text_model=False,
    )  # fmt: skip
    errors = {r.case_id: r.error for r in result.requests}
    assert errors["c-1"] == "the generated dialogue has no user message"
    assert errors["c-2"] == (
        "GeneratedConversation (interecagent.one_turn_retrieval): no valid reply after 3"
        " attempt(s); last error: no JSON object found in the reply"
    )
    assert errors["c-3"] is None and result.failed_requests == 2
    # Only user 3's case is asked; InteRecAgent failed on it, popularity (7 2) missed.
    assert [(a.system, a.error, a.score) for a in result.answers] == [
        ("InteRecAgent", "planner crashed", 0.0), ("popularity", None, 0.0),
    ]  # fmt: skip
    ira = result.summary.iloc[0]
    assert (ira["system"], ira["cases"], ira["errors"], ira["Recall@2"]) == (
        "InteRecAgent",
        1,
        1,
        0.0,
    )
