"""Each planner's control flow on the scripted backend, against steps traced by hand.

Observations come from the real tools over the fixture films. A dead end is made with an
SQL question whose query returns no rows ("NOROWS") or an action no tool knows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.planners import run_planner
from macrs_sim.agents.recmind.planning import Limits
from macrs_sim.agents.recmind.reasoner import majority, tally
from macrs_sim.agents.recmind.schemas import (
    AnswerOutput,
    CandidatesOutput,
    InspireOutput,
    StepOutput,
    VoteOutput,
)
from macrs_sim.agents.recmind.scripted import scripted_sql
from macrs_sim.agents.recmind.tree import ReasoningTree
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest
from tests.agents.recmind.helpers import make_reasoner, roles

AVG = "What is the average rating user u1 gives?"
TASK = 'How will user u1 rate "Heat (1995)"? Answer with a number from 1 to 5.'


def step(
    action: str, argument: str = "", thought: str = "t", items: Sequence[str] = ()
) -> StepOutput:
    return StepOutput(thought=thought, action=action, argument=argument, items=list(items))


def sequence(*replies: object) -> Rule:
    """A rule answering the i-th call with the i-th reply (calls within one turn are serial)."""
    it: Iterator[object] = iter(replies)
    return lambda req: next(it)  # type: ignore[return-value]


def sql_rule(req: ScriptedRequest) -> str:
    text = message_text(req.messages[-1])
    if "NOROWS" in text:
        return "SELECT title FROM items WHERE year > 3000"
    return scripted_sql(text.split("question: ", 1)[-1].splitlines()[0])


def shape(tree: ReasoningTree) -> list[tuple[int, int | None, int, str, str, int | None]]:
    return [(n.id, n.parent, n.path, n.action, n.status, n.votes) for n in tree.nodes]


def test_tally_and_majority_break_ties_towards_the_earlier_option() -> None:
    assert tally([2, 2, 1, 7], 3) == [1, 2, 0]  # 7 is no option: it counts for nothing
    assert majority([1, 2, 0]) == 1
    assert majority([2, 2, 1]) == 0
    assert majority([]) == 0


async def test_cot_follows_one_path_until_finish(res: build.RecMindResources) -> None:
    thought = sequence(step("SQL", AVG),
                       step("Finish", "4"))  # fmt: skip
    r, client = make_reasoner(res, {"recmind.thought": thought, "recmind.sql": sql_rule})
    tree = await run_planner("cot", r, TASK, Limits(max_steps=4))
    assert shape(tree) == [(0, None, 1, "SQL", "kept", None), (1, 0, 1, "Finish", "finish", None)]
    # (5 + 4 + 3.5) / 3 = 4.1666 -> ROUND(.., 1) = 4.2
    assert tree.nodes[0].observation == "The database returned: average; 4.2"
    assert tree.answer == "4" and tree.final_path == [0, 1] and tree.steps_used == 1
    assert roles(client) == ["thought", "sql", "sql_answer", "thought"]
    assert not tree.hit_step_limit


async def test_a_json_number_as_the_argument_is_read_as_its_text(
    res: build.RecMindResources,
) -> None:
    """{"argument": 4} (a rating, written as a number) finishes at once, not after repairs."""
    rules = {"recmind.thought": lambda req: '{"thought": "t", "action": "Finish", "argument": 4}'}
    r, client = make_reasoner(res, rules)
    tree = await run_planner("cot", r, TASK, Limits(max_steps=4))
    assert tree.answer == "4" and roles(client) == ["thought"]
    assert AnswerOutput.model_validate({"answer": 3.5}).answer == "3.5"
    assert (
        StepOutput.model_validate({"thought": "t", "action": "x", "argument": 2.0}).argument == "2"
    )


async def test_cot_stops_at_the_step_limit_and_asks_for_the_answer(
    res: build.RecMindResources,
) -> None:
    rules = {
        "recmind.thought": lambda req: step("Search", "heist"),
        "recmind.final": lambda req: AnswerOutput(answer="Heat (1995)", items=["Heat (1995)"]),
    }
    r, client = make_reasoner(res, rules)
    tree = await run_planner("cot", r, TASK, Limits(max_steps=2))
    assert [(n.id, n.parent, n.action) for n in tree.nodes] == [
        (0, None, "Search"),
        (1, 0, "Search"),
    ]
    assert tree.hit_step_limit and tree.steps_used == 2 and tree.final_path == [0, 1]
    assert (tree.answer, tree.items) == ("Heat (1995)", ["Heat (1995)"])
    assert roles(client) == ["thought", "search", "thought", "search", "final"]
    # The search found Heat (1995) ("3") among others: it grounds the answer later.
    assert "3" in r.found


async def test_tot_bfs_runs_the_majority_choice_and_prunes_the_rest(
    res: build.RecMindResources,
) -> None:
    first = [step("Summarize", "a long text"), step("SQL", AVG), step("Search", "heist")]
    second = [step("Finish", "4"), step("Finish", "2")]
    rules = {
        "recmind.sample": sequence(CandidatesOutput(candidates=first),
                                   CandidatesOutput(candidates=second)),
        # Step 1: ballots 2, 2, 1 -> option 2 (SQL). Step 2: 1 and 2 tie -> the earlier, 1.
        "recmind.vote": sequence(*(VoteOutput(best=b) for b in (2, 2, 1, 1, 2, 9))),
        "recmind.sql": sql_rule,
    }  # fmt: skip
    r, client = make_reasoner(res, rules, temperature=0.7)  # ballots are sampled
    tree = await run_planner("tot-bfs", r, TASK, Limits(max_steps=4, breadth=3, votes=3))
    assert shape(tree) == [
        (0, None, 1, "Summarize", "pruned", 1), (1, None, 1, "SQL", "kept", 2),
        (2, None, 1, "Search", "pruned", 0),
        (3, 1, 1, "Finish", "finish", 1), (4, 1, 1, "Finish", "pruned", 1),
    ]  # fmt: skip
    assert tree.ballots == [[2, 2, 1], [1, 2]]  # 9 is no option
    assert tree.answer == "4" and tree.final_path == [1, 3]
    assert [n.observation is None for n in tree.nodes] == [True, False, True, True, True]
    assert roles(client) == ["sample", "vote", "vote", "vote", "sql", "sql_answer",
                             "sample", "vote", "vote", "vote"]  # fmt: skip


async def test_votes_at_temperature_0_are_asked_once(res: build.RecMindResources) -> None:
    """Deterministic sampling gives the same ballot every time: one is asked, one paid."""
    first = [step("SQL", AVG), step("Search", "heist")]
    rules = {
        "recmind.sample": sequence(CandidatesOutput(candidates=first),
                                   CandidatesOutput(candidates=[step("Finish", "4")])),
        "recmind.vote": lambda req: VoteOutput(best=1),
        "recmind.sql": sql_rule,
    }  # fmt: skip
    r, client = make_reasoner(res, rules)
    tree = await run_planner("tot-bfs", r, TASK, Limits(max_steps=4, breadth=2, votes=3))
    assert tree.ballots == [[1], [1]] and tree.answer == "4"
    assert roles(client) == ["sample", "vote", "sql", "sql_answer", "sample", "vote"]
    assert [args for role, args in client.create_args if role == "recmind.vote"] == [{}, {}]


async def test_votes_are_sampled_at_the_stated_temperature_each_with_its_seed(
    res: build.RecMindResources,
) -> None:
    # The run is at temperature 0; vote_temperature 0.7 samples 3 ballots, seeds 0, 1, 2.
    rules = {"recmind.vote": sequence(*(VoteOutput(best=b) for b in (2, 1, 2)))}
    r, client = make_reasoner(res, rules, vote_temperature=0.7)
    ballots = await r.vote([], [step("SQL", AVG), step("Search", "heist")], 3)
    assert ballots == [2, 1, 2]
    assert [args for _, args in client.create_args] == [
        {"temperature": 0.7, "seed": 0}, {"temperature": 0.7, "seed": 1},
        {"temperature": 0.7, "seed": 2},
    ]  # fmt: skip
    # The run samples (0.5) and no vote temperature is named: its own, seeds apart.
    r, _ = make_reasoner(res, temperature=0.5)
    assert r.ballots(2) == [{"seed": 0}, {"seed": 1}]
    # A vote temperature of 0 under a sampling run: one ballot, at 0.
    r, _ = make_reasoner(res, temperature=0.5, vote_temperature=0.0)
    assert r.ballots(3) == [{"temperature": 0.0}]


def test_tot_breadth_is_the_papers_five() -> None:
    # "list five possible thoughts" (appendix A); "the 5 best candidate thoughts" (§4.7)
    assert RecMindOptions().tot_breadth == 5 and Limits(max_steps=1).breadth == 5


async def test_tot_dfs_backtracks_from_dead_ends(res: build.RecMindResources) -> None:
    # Root: A = Search "heist" (found), B = SQL with no rows (dead), C = an unknown action
    # (dead). Votes 1, 2, 1 -> A 2, B 1, C 0: A first, then B, then C. A ran: the
    # evaluator votes A (with its observation) against B and C: 1, 1, 1 -> go on under A.
    # Under A: one candidate, an unknown action (dead) -> A is a dead end: backtrack.
    # B: no rows -> dead. C: no vote, still a sibling: tried, dead. The root is dead: the
    # answer is asked for from the empty path.
    rules = {
        "recmind.sample": sequence(
            CandidatesOutput(candidates=[step("Search", "heist"), step("SQL", "NOROWS"),
                                         step("Dance", "later")]),
            CandidatesOutput(candidates=[step("Dance", "now")]),
        ),
        "recmind.vote": sequence(*(VoteOutput(best=b) for b in (1, 2, 1, 1, 1, 1, 1, 1, 1))),
        "recmind.sql": sql_rule,
        "recmind.final": lambda req: AnswerOutput(answer="3"),
    }  # fmt: skip
    r, client = make_reasoner(res, rules, temperature=0.7)  # ballots are sampled
    tree = await run_planner("tot-dfs", r, TASK, Limits(max_steps=6, breadth=3, votes=3))
    assert shape(tree) == [
        (0, None, 1, "Search", "backtracked", 2), (1, None, 1, "SQL", "backtracked", 1),
        (2, None, 1, "Dance", "backtracked", 0), (3, 0, 1, "Dance", "backtracked", 3),
    ]  # fmt: skip
    assert (
        tree.nodes[3].observation
        == "Error: unknown action 'Dance'; actions: SQL, Search, Summarize, Finish"
    )
    assert tree.nodes[1].observation == "title\n(no rows)"
    assert tree.steps_used == 4 and tree.final_path == [] and tree.answer == "3"
    assert roles(client) == ["sample", "vote", "vote", "vote", "search", "vote", "vote", "vote",
                             "sample", "vote", "vote", "vote", "sql", "final"]  # fmt: skip
    assert tree.ballots == [[1, 2, 1], [1, 1, 1], [1, 1, 1]]


async def test_tot_dfs_returns_to_a_sibling_without_votes_when_the_first_branch_dead_ends(
    res: build.RecMindResources,
) -> None:
    """At temperature 0 every ballot names the same candidate: its siblings get none. The
    search must still come back to them when the voted branch dead-ends (paper §3)."""
    rules = {
        "recmind.sample": sequence(
            CandidatesOutput(candidates=[step("Search", "heist"), step("Search", "ghost")]),
            CandidatesOutput(candidates=[step("SQL", "NOROWS"), step("Dance", "now")]),
            CandidatesOutput(candidates=[step("Finish", "Haunted Manor",
                                              items=["Haunted Manor"])]),
        ),
        "recmind.vote": lambda req: VoteOutput(best=1),
        "recmind.sql": sql_rule,
    }  # fmt: skip
    r, client = make_reasoner(res, rules)
    tree = await run_planner("tot-dfs", r, TASK, Limits(max_steps=6, breadth=2, votes=1))
    # heist (1 vote) runs; the evaluator keeps it over ghost -> its children: SQL no rows
    # (1 vote, dead), Dance (dead): heist is a dead end; back to the root's next sibling,
    # ghost (no vote), whose child finishes (ghost has no untried sibling: no evaluation).
    assert shape(tree) == [
        (0, None, 1, "Search", "backtracked", 1), (1, None, 1, "Search", "kept", 0),
        (2, 0, 1, "SQL", "backtracked", 1), (3, 0, 1, "Dance", "backtracked", 0),
        (4, 1, 1, "Finish", "finish", 1),
    ]  # fmt: skip
    assert tree.final_path == [1, 4] and tree.items == ["Haunted Manor"]
    assert tree.steps_used == 4 and not tree.hit_step_limit
    assert roles(client) == ["sample", "vote", "search", "vote", "sample", "vote", "sql",
                             "search", "sample", "vote"]  # fmt: skip


async def test_tot_dfs_evaluator_prunes_a_state_that_ran_and_found_rows(
    res: build.RecMindResources,
) -> None:
    """Fig. 1: option 3(1) runs, the voting evaluator prunes it, 3(2) is tried. A state
    whose tool found something is pruned when the evaluator, shown its observation,
    prefers an untried sibling; that sibling runs next, before the vote order's next."""
    rules = {
        "recmind.sample": sequence(
            CandidatesOutput(candidates=[step("Search", "heist"), step("SQL", "NOROWS"),
                                         step("Search", "ghost")]),
            CandidatesOutput(candidates=[step("Finish", "Haunted Manor",
                                              items=["Haunted Manor"])]),
        ),
        # Root: 1 (heist). heist ran: 3 (ghost) over it and SQL. ghost ran: 1 (keep it).
        # Under ghost: 1 (Finish).
        "recmind.vote": sequence(*(VoteOutput(best=b) for b in (1, 3, 1, 1))),
        "recmind.sql": sql_rule,
    }  # fmt: skip
    r, client = make_reasoner(res, rules)
    tree = await run_planner("tot-dfs", r, TASK, Limits(max_steps=6, breadth=3, votes=1))
    assert shape(tree) == [
        (0, None, 1, "Search", "backtracked", 1), (1, None, 1, "SQL", "unexplored", 0),
        (2, None, 1, "Search", "kept", 0), (3, 2, 1, "Finish", "finish", 1),
    ]  # fmt: skip
    assert tree.nodes[0].observation is not None and tree.nodes[0].ok
    assert tree.final_path == [2, 3] and tree.items == ["Haunted Manor"]
    assert tree.ballots == [[1], [3], [1], [1]] and tree.steps_used == 2
    assert roles(client) == ["sample", "vote", "search", "vote", "search", "vote",
                             "sample", "vote"]  # fmt: skip
    # The evaluation shows the state that ran with its observation, its siblings without.
    votes = [c for c in client.calls if c.context.role == "recmind.vote"]
    shown = message_text(votes[1].messages[-1])
    assert "1. Thought: t Action: Search[heist] Observation: " in shown
    assert "2. Thought: t Action: SQL[NOROWS]\n3. Thought: t Action: Search[ghost]\n" in shown


async def test_tot_dfs_takes_the_next_candidate_after_a_dead_end_and_finishes(
    res: build.RecMindResources,
) -> None:
    rules = {
        "recmind.sample": sequence(
            CandidatesOutput(candidates=[step("SQL", "NOROWS"), step("Search", "heist")]),
            CandidatesOutput(candidates=[step("Finish", "Heat", items=["Heat (1995)"])]),
        ),
        "recmind.vote": sequence(*(VoteOutput(best=b) for b in (1, 2, 1, 1))),
        "recmind.sql": sql_rule,
    }  # fmt: skip
    r, _ = make_reasoner(res, rules, temperature=0.7)  # ballots are sampled
    tree = await run_planner("tot-dfs", r, TASK, Limits(max_steps=6, breadth=2, votes=2))
    assert shape(tree) == [
        (0, None, 1, "SQL", "backtracked", 1), (1, None, 1, "Search", "kept", 1),
        (2, 1, 1, "Finish", "finish", 2),
    ]  # fmt: skip
    assert tree.final_path == [1, 2] and tree.items == ["Heat (1995)"]


async def test_tot_dfs_stops_at_the_step_limit_on_the_path_it_was_on(
    res: build.RecMindResources,
) -> None:
    rules = {
        "recmind.sample": lambda req: CandidatesOutput(candidates=[step("Search", "heist")]),
        "recmind.vote": lambda req: VoteOutput(best=1),
        "recmind.final": lambda req: AnswerOutput(answer="done"),
    }
    r, client = make_reasoner(res, rules)
    tree = await run_planner("tot-dfs", r, TASK, Limits(max_steps=2, breadth=1, votes=1))
    assert [(n.id, n.parent, n.status) for n in tree.nodes] == [(0, None, "kept"), (1, 0, "kept")]
    assert tree.hit_step_limit and tree.final_path == [0, 1] and tree.answer == "done"
    assert roles(client)[-1] == "final" and roles(client).count("sample") == 2


async def test_self_inspiring_keeps_every_path_in_context(res: build.RecMindResources) -> None:
    # t=0: Search (path 1); inspire -> an alternative SQL becomes path 2 (sibling), t=2.
    # t=2: the next thought sees both paths; it finishes.
    thought = sequence(step("Search", "heist"), step("Finish", "4"))
    inspire = sequence(InspireOutput(thought="Ask the ratings.", action="SQL", argument=AVG))
    rules = {"recmind.thought": thought, "recmind.inspire": inspire, "recmind.sql": sql_rule}
    r, client = make_reasoner(res, rules)
    tree = await run_planner("self-inspiring", r, TASK, Limits(max_steps=4, max_paths=3))
    assert shape(tree) == [
        (0, None, 1, "Search", "alternative", None), (1, None, 2, "SQL", "kept", None),
        (2, 1, 2, "Finish", "finish", None),
    ]  # fmt: skip
    assert tree.steps_used == 2 and tree.final_path == [1, 2] and tree.answer == "4"
    assert roles(client) == ["thought", "search", "inspire", "sql", "sql_answer", "thought"]
    last = message_text(client.calls[-1].messages[-1])
    assert "[path 1] Step 1\nThought: t\nAction: Search[heist]" in last
    assert "[path 2] Step 1\nThought: Ask the ratings.\nAction: SQL[What is the average" in last


async def test_self_inspiring_declines_and_respects_paths_and_step_limit(
    res: build.RecMindResources,
) -> None:
    # inspire says no (empty thought): one path; at max_paths=1 inspire is never asked.
    rules = {
        "recmind.thought": lambda req: step("Search", "heist"),
        "recmind.inspire": lambda req: InspireOutput(),
        "recmind.final": lambda req: AnswerOutput(answer="done"),
    }
    r, client = make_reasoner(res, rules)
    tree = await run_planner("self-inspiring", r, TASK, Limits(max_steps=2, max_paths=3))
    assert [(n.id, n.parent, n.path) for n in tree.nodes] == [(0, None, 1), (1, 0, 1)]
    # After the second step the limit is reached: no inspire call for it.
    assert roles(client).count("inspire") == 1 and tree.hit_step_limit
    r, client = make_reasoner(res, rules)
    await run_planner("self-inspiring", r, TASK, Limits(max_steps=2, max_paths=1))
    assert "inspire" not in roles(client)


async def test_self_inspiring_alternative_costs_a_step(res: build.RecMindResources) -> None:
    rules = {
        "recmind.thought": lambda req: step("Search", "heist"),
        "recmind.inspire": lambda req: InspireOutput(
            thought="Also", action="Search", argument="ghost"
        ),  # fmt: skip
        "recmind.final": lambda req: AnswerOutput(answer="done"),
    }
    r, _ = make_reasoner(res, rules)
    tree = await run_planner("self-inspiring", r, TASK, Limits(max_steps=3, max_paths=2))
    # t: 0 -> Search p1, alt p2 (t=2) -> Search p2 (t=3) = limit; paths capped at 2.
    assert [(n.id, n.parent, n.path, n.status) for n in tree.nodes] == [
        (0, None, 1, "alternative"), (1, None, 2, "kept"), (2, 1, 2, "kept"),
    ]  # fmt: skip
    assert tree.steps_used == 3 and tree.final_path == [1, 2]
