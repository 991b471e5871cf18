"""The suggestion judge (paper Table 2) over a real scripted campaign, with a scripted judge."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from autogen_core.models import LLMMessage
from pydantic import BaseModel

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import ConfigError
from macrs_sim.judge import (
    JudgeRecord,
    JudgeVerdict,
    combine_choices,
    find_pairs,
    judge_run,
    judge_scripted_rules,
    judge_table,
    read_judgments,
    render_table2_markdown,
)
from macrs_sim.judge.prompts import judge_messages, regenerate_messages
from macrs_sim.judge.schemas import CRITERIA, Choice, Outcome
from macrs_sim.judge.scripted import SCRIPTED_PLAIN_TEXT, presented_responses
from macrs_sim.llm.accounting import AccountingClient, CallLog
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient, ScriptedRequest
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Utterance
from macrs_sim.store import RunStore

Key = tuple[str, int]
# The scripted planner's recommendations fail at turns 2 and 4, so the strategy reflector's
# suggestions are in force at turns 3 (chat) and 5 (recommend) of each MACRS dialogue.
KEYS: list[Key] = [
    ("MACRS:s-u0199", 3),
    ("MACRS:s-u0199", 5),
    ("MACRS:s-u0385", 3),
    ("MACRS:s-u0385", 5),
]
# The test judge's winner when w/ is shown as A, and when it is shown as B.
WINNERS: dict[Key, tuple[Choice, Choice]] = {
    KEYS[0]: ("A", "tie"),  # w/ wins, then a tie -> with
    KEYS[1]: ("A", "A"),  # follows the position -> tie
    KEYS[2]: ("B", "A"),  # w/o wins in both orders -> without
    KEYS[3]: ("tie", "B"),  # a tie, then w/ wins -> with
}
FAILING = KEYS[3]
CHAT_S = "Chat about favourite directors."
RECOMMEND_S = "Recommend something matching the mood."
FAIL_ERROR = (
    "StructuredOutputError: JudgeVerdict (judge): no valid reply after 3 attempt(s); "
    "last error: no JSON object found in the reply"
)


def _capturing(
    rule: Rule, role: str, captured: dict[tuple[str, int, str], list[LLMMessage]]
) -> Rule:
    def capture(req: ScriptedRequest) -> str | BaseModel:
        captured[(str(req.context.dialogue_id), req.context.turn or 0, role)] = list(req.messages)
        return rule(req)

    return capture


async def campaign(
    tmp_path: Path,
    catalog: Catalog,
    captured: dict[tuple[str, int, str], list[LLMMessage]] | None = None,
) -> Path:
    """MACRS and the single-LLM baseline, 2 samples, 5 turns, on the scripted backend."""
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    rules = default_scripted_rules([i.display_title for i in catalog])
    for act in ("chat", "recommend"):  # keep the responders' prompts, answer as usual
        role = f"macrs.{act}"
        rules[role] = _capturing(rules[role], act, captured if captured is not None else {})
    scenario = parse_scenario(
        {
            "name": "t",
            "model": {"backend": "scripted"},
            "data": {"catalog": str(path), "history_len": 3, "min_history": 1, "n_samples": 2},
            "protocol": {"max_turns": 5, "final_list_k": 5},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )
    result = await run_campaign_async(
        scenario, output_dir=tmp_path / "runs", progress=False, scripted_rules=rules
    )
    return result.run_dir


def with_texts(run: Path) -> dict[Key, str]:
    with RunStore.open(run / "store.sqlite") as store:
        return {p.key: p.with_suggestion for p in find_pairs(store.read_results())}


def judge_client(
    run: Path, catalog: Catalog, *, failing: Key | None = None
) -> tuple[AccountingClient, ScriptedChatCompletionClient]:
    """A judge following WINNERS; it prefers w/o on conciseness and A on engagement."""
    texts = with_texts(run)

    def judge(req: ScriptedRequest) -> str | BaseModel:
        key = (str(req.context.dialogue_id), req.context.turn or 0)
        if key == failing:
            return "I cannot decide."
        shown = presented_responses(req)
        assert shown is not None
        with_is_a = shown[0] == texts[key]
        winner = WINNERS[key][0 if with_is_a else 1]
        return JudgeVerdict(
            recommendation_accuracy=winner,
            information_gain="tie",
            conciseness="B" if with_is_a else "A",
            engagement="A",
            winner=winner,
        )

    rules = {**judge_scripted_rules([i.display_title for i in catalog]), "judge": judge}
    inner = ScriptedChatCompletionClient(rules)
    return AccountingClient(inner, CallLog(), "scripted"), inner


@pytest.mark.parametrize(
    ("ab", "ba", "expected"),
    [
        ("A", "B", "with"),  # w/ wins in both orders
        ("A", "tie", "with"),
        ("tie", "B", "with"),
        ("B", "A", "without"),  # w/o wins in both orders
        ("B", "tie", "without"),
        ("tie", "A", "without"),
        ("A", "A", "tie"),  # the judge followed the position: one win each
        ("B", "B", "tie"),
        ("tie", "tie", "tie"),
    ],
)
def test_orders_combine_by_the_documented_rule(ab: Choice, ba: Choice, expected: Outcome) -> None:
    assert combine_choices(ab, ba) == expected


def test_judge_prompt_renders_exactly(prompts: PromptLibrary) -> None:
    history = [
        Utterance(speaker="user", text="I want a funny movie."),
        Utterance(speaker="system", text="Any favourite era?"),
        Utterance(speaker="user", text="The nineties."),
    ]
    system, user = judge_messages(prompts.get("judge"), history, "How about Clueless (1995)?", "  ")
    assert system.content == (
        "You are an impartial evaluator of a conversational movie recommender system. "
        "You compare two candidate responses that the system could give as its next message "
        "in the same dialogue with a user who is looking for a movie. Judge the content of "
        "the responses only: their order and their length alone must not decide."
    )
    assert user.content == (
        "Dialogue history:\n"
        "User: I want a funny movie.\nAssistant: Any favourite era?\nUser: The nineties.\n\n"
        "Response A:\nHow about Clueless (1995)?\n\n"
        "Response B:\n(none)\n\n"
        "Compare the two responses as the system's next message to the user according to "
        "these criteria:\n"
        "(1) recommendation_accuracy: which response better matches what the user has asked "
        "for, so that it is more likely to lead to a movie the user accepts;\n"
        "(2) information_gain: which response helps the system learn more about the user's "
        "preferences;\n"
        "(3) conciseness: which response says what it needs to in fewer, clearer words;\n"
        "(4) engagement: which response makes the user more willing to continue the "
        "conversation.\n"
        "Then select the superior response based on these criteria.\n\n"
        'Reply in JSON with "recommendation_accuracy", "information_gain", "conciseness", '
        '"engagement" and "winner" (the superior response overall), each "A", "B" or "tie".'
    )


async def test_pairs_are_the_suggested_turns_and_the_counterfactual_drops_only_s(
    tmp_path: Path, catalog: Catalog, prompts: PromptLibrary
) -> None:
    captured: dict[tuple[str, int, str], list[LLMMessage]] = {}
    run = await campaign(tmp_path, catalog, captured)
    with RunStore.open(run / "store.sqlite") as store:
        pairs = find_pairs(store.read_results())
    assert [p.key for p in pairs] == KEYS  # the single-LLM baseline has no suggestions
    assert [(p.act, p.suggestion, len(p.history)) for p in pairs] == [
        ("chat", CHAT_S, 5),
        ("recommend", RECOMMEND_S, 9),
    ] * 2
    assert (pairs[1].with_suggestion, pairs[1].with_item_title) == (
        "You might enjoy Heat (1986).",
        "Heat (1986)",
    )
    for p in pairs:
        # The prompt the responder saw in the campaign, with "(none)" for its suggestion.
        system, user = (message_text(m) for m in captured[(p.dialogue_id, p.turn, p.act)])
        line = f"Suggestion for this turn: {p.suggestion}"
        assert line in user
        expected = [system, user.replace(line, "Suggestion for this turn: (none)")]
        assert [message_text(m) for m in regenerate_messages(prompts, p)] == expected


async def test_judge_run_presents_both_orders_and_records_a_failing_pair(
    tmp_path: Path, catalog: Catalog, prompts: PromptLibrary
) -> None:
    run = await campaign(tmp_path, catalog)
    client, inner = judge_client(run, catalog, failing=FAILING)
    records = await judge_run(run, client, prompts, concurrency=2)
    assert [r.key for r in records] == KEYS
    assert [r.outcome for r in records] == ["with", "tie", "without", None]
    assert [records[0].criterion_outcome(c) for c in CRITERIA] == ["with", "tie", "without", "tie"]
    assert [r.without_suggestion for r in records] == [
        SCRIPTED_PLAIN_TEXT,
        "Without a hint, I'd pick The Godfather (1972).",
        SCRIPTED_PLAIN_TEXT,
        "Without a hint, I'd pick Heat (1995).",
    ]
    failed = records[3]
    assert (failed.error, failed.verdict_ab, failed.without_item_title) == (
        FAIL_ERROR,
        None,
        "Heat (1995)",
    )
    template = prompts.get("judge")
    with RunStore.open(run / "store.sqlite") as store:
        pairs = {p.key: p for p in find_pairs(store.read_results())}
        judge_calls = [c for c in store.read_calls() if c.system == "(judge)"]
        assert len(store.read_events("judgment")) == 4
    for r in records[:3]:
        w, wo = r.with_suggestion, str(r.without_suggestion)
        calls = [
            c
            for c in inner.calls
            if c.context.role == "judge" and (c.context.dialogue_id, c.context.turn) == r.key
        ]
        assert [presented_responses(c) for c in calls] == [(w, wo), (wo, w)]
        first = judge_messages(template, pairs[r.key].history, w, wo)
        assert [message_text(m) for m in calls[0].messages] == [message_text(m) for m in first]
    # 4 counterfactuals; 2 verdicts for each of 3 pairs, 3 failed attempts for the last one.
    assert Counter(c.context.role for c in inner.calls) == {"judge_regenerate": 4, "judge": 9}
    assert Counter(c.role for c in judge_calls) == {"judge_regenerate": 4, "judge": 9}
    assert {(c.dialogue_id, c.turn) for c in judge_calls} == set(KEYS)
    assert read_judgments(run) == records


async def test_judging_again_redoes_only_failures_then_nothing(
    tmp_path: Path, catalog: Catalog, prompts: PromptLibrary
) -> None:
    run = await campaign(tmp_path, catalog)
    await judge_run(run, judge_client(run, catalog, failing=FAILING)[0], prompts)
    partial = judge_table(read_judgments(run)).iloc[0]
    counts = partial[["pairs", "errors", "with_wins", "ties", "without_wins"]].tolist()
    assert counts == [3, 1, 1, 1, 1]  # the failed pair is an error, not a pair

    client, inner = judge_client(run, catalog)
    again = await judge_run(run, client, prompts)
    assert [(r.key, r.outcome, r.error) for r in again] == [(FAILING, "with", None)]
    assert [c.context.role for c in inner.calls] == ["judge_regenerate", "judge", "judge"]
    client, inner = judge_client(run, catalog)
    assert await judge_run(run, client, prompts) == [] and inner.calls == []

    records = read_judgments(run)
    assert [r.outcome for r in records] == ["with", "tie", "without", "with"]
    row = judge_table(records).iloc[0].to_dict()
    assert row == {
        "system": "MACRS",
        "pairs": 4,
        "errors": 0,
        **{"with_wins": 2, "with_wins_share": 0.5, "ties": 1, "ties_share": 0.25},
        **{"without_wins": 1, "without_wins_share": 0.25},
        # Single order, 8 judgments (w/ as A, then as B): KEYS[0] with, tie; KEYS[1] with,
        # without; KEYS[2] without, without; KEYS[3] tie, with -> 3 / 2 / 3.
        "judgments": 8,
        **_criterion("single", 3, 2, 3, of=8),
        **_criterion("recommendation_accuracy", 2, 1, 1),
        **_criterion("recommendation_accuracy_single", 3, 2, 3, of=8),
        **_criterion("information_gain", 0, 4, 0),
        **_criterion("information_gain_single", 0, 8, 0, of=8),
        **_criterion("conciseness", 0, 0, 4),
        **_criterion("conciseness_single", 0, 0, 8, of=8),
        # Always "A": a win for w/ in the first order, for w/o in the second.
        **_criterion("engagement", 0, 4, 0),
        **_criterion("engagement_single", 4, 0, 4, of=8),
    }
    assert render_table2_markdown(judge_table(records)) == TABLE2


def _criterion(name: str, wins: int, ties: int, losses: int, of: int = 4) -> dict[str, float | int]:
    counts = {"with_wins": wins, "ties": ties, "without_wins": losses}
    return {
        k: v
        for c, n in counts.items()
        for k, v in ((f"{name}_{c}", n), (f"{name}_{c}_share", n / of))
    }


TABLE2 = """\
## Strategy-level suggestions (Table 2)

Both orders combined (one outcome per pair):

| System | Pairs | Errors | Response w/ Suggestions Wins | Tie | Response w/o Suggestions Wins |
| --- | ---: | ---: | ---: | ---: | ---: |
| MACRS | 4 | 0 | 50.0% (2) | 25.0% (1) | 25.0% (1) |

Single order (each ordered judgment on its own; the paper's counting):

| System | Judgments | Response w/ Suggestions Wins | Tie | Response w/o Suggestions Wins |
| --- | ---: | ---: | ---: | ---: |
| MACRS | 8 | 37.5% (3) | 25.0% (2) | 37.5% (3) |

Per criterion, both orders combined:

| System | Criterion | Response w/ Suggestions Wins | Tie | Response w/o Suggestions Wins |
| --- | --- | ---: | ---: | ---: |
| MACRS | Recommendation accuracy | 50.0% (2) | 25.0% (1) | 25.0% (1) |
| MACRS | User information gain | 0.0% (0) | 100.0% (4) | 0.0% (0) |
| MACRS | Conciseness | 0.0% (0) | 0.0% (0) | 100.0% (4) |
| MACRS | Engagement | 0.0% (0) | 100.0% (4) | 0.0% (0) |

Per criterion, single order:

| System | Criterion | Response w/ Suggestions Wins | Tie | Response w/o Suggestions Wins |
| --- | --- | ---: | ---: | ---: |
| MACRS | Recommendation accuracy | 37.5% (3) | 25.0% (2) | 37.5% (3) |
| MACRS | User information gain | 0.0% (0) | 100.0% (8) | 0.0% (0) |
| MACRS | Conciseness | 0.0% (0) | 0.0% (0) | 100.0% (8) |
| MACRS | Engagement | 50.0% (4) | 0.0% (0) | 50.0% (4) |

- Both orders combined: Each pair was judged in both orders (w/ as A, then w/o as A) \
to cancel position bias. w/ wins if it wins in both orders, or wins in one and ties in \
the other; w/o wins in the symmetric cases; anything else (one win each, or two ties) is a tie. \
Each criterion is combined the same way.
- Single order: each of a pair's two ordered judgments counted on its own (two per pair, \
position bias not cancelled). The paper describes one judgment per comparison, so its \
shares compare with these.
- Pairs the judge could not answer (errors) are left out of the shares.
- The paper reports 45.4% / 33.0% / 21.6% (MACRS, ChatGPT as the judge).
"""


async def test_default_rules_run_the_judge_max_pairs_takes_the_first_and_systems_regenerate(
    tmp_path: Path, catalog: Catalog, prompts: PromptLibrary
) -> None:
    run = await campaign(tmp_path, catalog)
    titles = [i.display_title for i in catalog]
    rules = {**default_scripted_rules(titles), **judge_scripted_rules(titles)}
    client, macrs_model = ScriptedChatCompletionClient(rules), ScriptedChatCompletionClient(rules)
    first = await judge_run(run, client, prompts, max_pairs=1)
    assert [r.key for r in first] == KEYS[:1]
    rest = await judge_run(
        run, client, prompts, max_pairs=None, regenerate_clients={"MACRS": macrs_model}
    )
    assert [r.key for r in rest] == KEYS[1:]
    # The system's own model regenerates its responses; the judge's model only judges.
    assert Counter(c.context.role for c in client.calls) == {"judge_regenerate": 1, "judge": 8}
    assert Counter(c.context.role for c in macrs_model.calls) == {"judge_regenerate": 3}
    # The scripted judge prefers the longer text: here always the counterfactual.
    assert [r.outcome for r in read_judgments(run)] == ["without"] * 4
    with RunStore.open(run / "store.sqlite") as store:  # an unaccounted client leaves no calls
        assert not [c for c in store.read_calls() if c.system == "(judge)"]


async def test_a_responder_prompt_other_than_the_runs_is_refused(
    tmp_path: Path, catalog: Catalog
) -> None:
    run = await campaign(tmp_path, catalog)
    other = tmp_path / "prompts"
    other.mkdir()
    (other / "responder_chat.txt").write_text(
        "[system]\nBe brief.\n[user]\n$dialogue_history $user_profile $suggestion\n"
    )
    client, inner = judge_client(run, catalog)
    with pytest.raises(ConfigError, match="prompt 'responder_chat' is not the one the run used"):
        await judge_run(run, client, PromptLibrary(other))
    assert inner.calls == []


def test_table_has_a_row_for_a_system_without_pairs_and_an_empty_table_says_so() -> None:
    verdict = JudgeVerdict(
        recommendation_accuracy="A",
        information_gain="A",
        conciseness="tie",
        engagement="B",
        winner="A",
    )
    record = JudgeRecord(
        dialogue_id="MACRS:s1",
        system="MACRS",
        sample_id="s1",
        turn=3,
        act="ask",
        suggestion="Ask about the era.",
        with_suggestion="Which decade?",
        without_suggestion="Anything else?",
        verdict_ab=verdict,
        verdict_ba=verdict,
        outcome="tie",
    )
    frame = judge_table([record], systems=["MACRS", "other"])
    assert frame["system"].tolist() == ["MACRS", "other"]
    markdown = render_table2_markdown(frame)
    assert "| MACRS | 1 | 0 | 0.0% (0) | 100.0% (1) | 0.0% (0) |" in markdown
    assert "| other | 0 | 0 | n/a | n/a | n/a |" in markdown
    # Single order: winner "A" in both orders is one win for each response.
    assert "| MACRS | 2 | 50.0% (1) | 0.0% (0) | 50.0% (1) |" in markdown
    assert "| other | 0 | n/a | n/a | n/a |" in markdown
    assert "| MACRS | Engagement | 0.0% (0) | 100.0% (1) | 0.0% (0) |" in markdown
    empty = render_table2_markdown(judge_table([]))
    assert empty == "## Strategy-level suggestions (Table 2)\n\nNo pairs were judged.\n"
