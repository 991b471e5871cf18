"""Prompts bounded by the model's context: tool rows, observations, the explored tree.

Estimates worked by hand: a digit or punctuation mark is a token, four other characters
one (rounded up). "… 6 more rows not shown": "…" and "6" alone (2), 21 others (6) = 8.
"""

from __future__ import annotations

from autogen_core.models import LLMMessage

from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.budget import (
    DEFAULT_CONTEXT_TOKENS,
    Budget,
    context_of,
    cut_lines,
    cut_text,
    estimate_tokens,
    message_tokens,
)
from macrs_sim.agents.recmind.planners import run_planner
from macrs_sim.agents.recmind.planning import Limits
from macrs_sim.agents.recmind.prompts import fit_states
from macrs_sim.agents.recmind.schemas import AnswerOutput, StepOutput
from macrs_sim.agents.recmind.tree import ReasoningTree
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedChatCompletionClient, ScriptedRequest
from tests.agents.recmind.helpers import make_reasoner

TASK = 'How will user u1 rate "Heat (1995)"? Answer with a number from 1 to 5.'


def test_tokens_are_estimated_per_digit_and_mark_and_per_four_letters() -> None:
    # "(", ")" and four digits: 6; "Heat " is 5 others: 2
    assert estimate_tokens("Heat (1995)") == 8
    assert estimate_tokens("… 5 more rows not shown") == 8
    assert estimate_tokens("") == 0


def test_budget_keeps_a_quarter_for_the_reply() -> None:
    budget = Budget(4096)
    assert (budget.prompt_tokens, budget.observation_tokens) == (3072, 512)


def test_cut_lines_keeps_whole_lines_and_says_how_many_are_left_out() -> None:
    rows = ["aaaa"] * 8  # 1 token each, +1 for its line end
    # head "title": 2 + 1 = 3; all of it 3 + 8 x 2 = 19.
    assert cut_lines(["title"], rows, 19, "rows") == "title\n" + "\n".join(rows)
    # Cut: a row kept leaves room for the note (8): 3 + 2 + 8 = 13, 5 + 2 + 8 = 15 fit 15;
    # a third would need 17.
    assert cut_lines(["title"], rows, 15, "rows") == "title\naaaa\naaaa\n… 6 more rows not shown"
    assert cut_lines(["title"], rows, 12, "rows") == "title\n… 8 more rows not shown"


def test_cut_text_keeps_the_start_and_counts_the_rest() -> None:
    text = "abcd" * 20  # 80 characters, 20 tokens
    assert cut_text(text, 20) == text
    # the note "… (72 more characters not shown)": "…", "(", ")", "7", "2" alone (5),
    # 27 others (7) = 12; 14 - 12 = 2 tokens = 8 characters kept
    assert cut_text(text, 14) == "abcdabcd … (72 more characters not shown)"


class WindowClient(ScriptedChatCompletionClient):
    """The scripted backend with a context of `n_ctx` tokens, as the embedded model has."""

    def __init__(self, n_ctx: int) -> None:
        super().__init__()
        self._n_ctx = n_ctx


def test_the_context_is_the_options_else_the_clients() -> None:
    assert context_of(WindowClient(4096), None) == 4096  # EmbeddedModel.n_ctx
    assert context_of(WindowClient(4096), 2048) == 2048  # context_tokens, for a server
    assert context_of(ScriptedChatCompletionClient(), None) == 32768  # the clients' default

    class Unknown(ScriptedChatCompletionClient):
        def remaining_tokens(self, messages: object, **kw: object) -> int:
            raise KeyError("unknown model")

    assert context_of(Unknown(), None) == DEFAULT_CONTEXT_TOKENS


def _within(calls: list[ScriptedRequest], budget: Budget) -> list[int]:
    """Each call's estimated prompt tokens, checked against the budget."""
    sizes = [message_tokens(list(c.messages)) for c in calls]
    assert max(sizes) <= budget.prompt_tokens, sizes
    return sizes


async def test_sql_rows_are_cut_to_the_prompt_and_the_cut_is_said(
    res: build.RecMindResources,
) -> None:
    # 8 x 8 = 64 rows of two titles and an overview; the tool returns its first 50.
    sql = "SELECT a.title, a.overview, b.title FROM items a, items b ORDER BY a.item_id, b.item_id"
    rules = {"recmind.sql": lambda req: sql}
    r, client = make_reasoner(res, rules, context_tokens=1024)
    obs = await r.act(StepOutput(thought="t", action="SQL", argument="Everything?"))
    budget = Budget(1024)
    _within(client.calls, budget)
    prompt = message_text(client.calls[-1].messages[-1])
    shown = prompt.split("Here is the database result:\n", 1)[1].splitlines()
    # header, the rows that fit (26 of the 50 by the estimate: 724 of 768 tokens), the
    # note, then the tool's own note of the 14 it never returned
    kept = len(shown) - 3
    assert (kept, shown[-2]) == (26, "… 24 more rows not shown")
    assert shown[-1] == "(only the first 50 rows are shown; add LIMIT or filters)"
    # the observation is the wording, then what its prompt did not show
    assert obs.text.endswith(f"\n… {50 - kept} more rows not shown")
    assert estimate_tokens(obs.text) <= budget.observation_tokens


async def test_unworded_rows_are_cut_to_an_observations_share(
    res: build.RecMindResources,
) -> None:
    sql = "SELECT a.title, a.overview FROM items a, items b"
    r, _ = make_reasoner(res, {"recmind.sql": lambda req: sql}, context_tokens=1024,
                         result_to_text=False)  # fmt: skip
    obs = await r.act(StepOutput(thought="t", action="SQL", argument="Everything?"))
    lines = obs.text.splitlines()
    assert lines[0] == "title | overview" and lines[-2].endswith("more rows not shown")
    assert len(lines) - 3 + int(lines[-2].split()[1]) == 50
    assert estimate_tokens(obs.text) <= Budget(1024).observation_tokens


def _long_observations(tree: ReasoningTree) -> None:
    for n in range(6):
        node = tree.add(
            n - 1 if n else None,
            {"thought": f"t{n}", "action": "Search", "argument": "x", "observation": "word " * 60},
        )
        assert node.depth == n


def test_older_states_are_left_out_first_and_counted() -> None:
    tree = ReasoningTree(planner="cot", step_limit=9)
    _long_observations(tree)
    whole = [estimate_tokens(fit_states(tree.path_to(n), 10_000)) for n in range(6)]
    # each state "Step k / Thought: tk / Action: Search[x] / Observation: word word ...":
    # one more state costs the same, ~90 tokens; 200 tokens hold two, with the note
    text = fit_states(tree.path_to(5), 200)
    assert text.startswith("(… 4 earlier steps not shown)\n\nStep 5\n")
    assert "\nStep 6\n" in text and estimate_tokens(text) <= 200
    assert whole[0] < 100 < whole[1] < 200 < whole[2]


async def test_every_cot_prompt_stays_within_the_context(res: build.RecMindResources) -> None:
    """A long search: each state keeps its observation, the path grows past what fits."""
    rules = {
        "recmind.thought": lambda req: StepOutput(thought="More.", action="Search",
                                                  argument="heist thief bank mansion ghost"),
        "recmind.search": lambda req: "Found: " + "a very long wording " * 80,
        "recmind.final": lambda req: AnswerOutput(answer="3"),
    }  # fmt: skip
    r, client = make_reasoner(res, rules, context_tokens=1024)
    tree = await run_planner("cot", r, TASK, Limits(max_steps=6))
    budget = Budget(1024)
    sizes = _within(client.calls, budget)
    assert tree.steps_used == 6 and len(sizes) == 13  # 6 x (thought, search) + final
    thoughts: list[LLMMessage] = [c.messages[-1] for c in client.calls[2::2]]
    assert "earlier steps not shown)" in message_text(thoughts[-1])
    # every observation was cut to its share, and says so
    assert all(n.observation and "more characters not shown)" in n.observation
               for n in tree.nodes)  # fmt: skip


async def test_the_vote_bounds_each_option_as_written(res: build.RecMindResources) -> None:
    """A sampled step's argument is as long as the model wrote it (a whole task pasted)."""
    long = StepOutput(thought="t", action="Summarize", argument="word " * 800)
    short = StepOutput(thought="t", action="Search", argument="heist")
    r, client = make_reasoner(res, context_tokens=1024)
    await r.vote([], [long, short], 1)
    _within(client.calls, Budget(1024))
    listed = message_text(client.calls[0].messages[-1]).split("Your available options are:\n")[1]
    first, second = listed.splitlines()[:2]
    assert first.startswith("1. Thought: t Action: Summarize[word word")
    assert first.endswith("more characters not shown)")
    assert second == "2. Thought: t Action: Search[heist]"
