"""The LLMRank baseline: its prompt, reading its free-text answer, and the scored list.

Fixture films: two named "Heat" (3: 1995, 4: 1986), "Laugh Factory " (5, a trailing space),
"Quiet Rooms" (8, no year). The fixed ranker's order of the unseen films for history
["1", "2"]: 4 7 3 5 6 8.
"""

from __future__ import annotations

from macrs_sim.agents.toolrec.llmrank import LLMRank, complete_ranking, llmrank_messages
from macrs_sim.agents.toolrec.llmrank_parse import normalize, parse_ranking
from macrs_sim.evaluation.toolrec.llmrank import LLMRankRecord, llmrank_stats, llmrank_user
from macrs_sim.evaluation.toolrec.metrics import ndcg_at, recall_at
from macrs_sim.llm.base import message_text
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item
from tests.agents.toolrec.helpers import client, films, prepared

CANDIDATES = ["4", "7", "3", "5", "6", "8"]


def items() -> list[Item]:
    catalog = films()
    return [catalog[i] for i in CANDIDATES]


def test_the_prompt_is_llmranks_recency_focused_prompt() -> None:
    template = PromptLibrary().get("toolrec/llmrank")
    (msg,) = llmrank_messages(template, films(), ["1", "2"], ["4", "8"])
    assert message_text(msg) == (
        "I've watched the following movies in the past in order:\n"
        "0. Star Voyage (1979)\n1. Paris in Love (2001)\n\n"
        "Now there are 2 candidate movies that I can watch next:\n"
        "0. Heat (1986)\n1. Quiet Rooms\n"
        "Please rank these 2 movies by measuring the possibilities that I would like to watch "
        "next most, according to my watching history. Please think step by step.\n"
        "Note that my most recently watched movie is Paris in Love (2001). Please show me your "
        "ranking results with order numbers. Split your output with line break. You MUST rank "
        "the given candidate movies. You can not generate movies that are not in the given "
        "candidate list."
    )


def test_titles_normalize_case_punctuation_and_a_trailing_article() -> None:
    assert normalize("Matrix, The") == normalize("**The Matrix**") == "the matrix"
    assert normalize("Star Trek VI: The Undiscovered Country") == (
        "star trek vi the undiscovered country"
    )


def test_titles_with_years_pick_the_right_namesake() -> None:
    answer = "1. Heat (1995)\n2. Heat (1986) - the earlier one\n3. **Galaxy Kids (2005)**"
    assert parse_ranking(answer, items()).items == ("3", "4", "7")


def test_duplicates_unknown_titles_and_reasoning_lines_are_counted_apart() -> None:
    answer = (
        "Let me think step by step. The user likes Heat (1995)-style crime.\n"
        "Ranking:\n"
        "1. Haunted Manor (1999)\n"
        "2. The Godfather (1972)\n"  # not a candidate
        "3. Haunted Manor (1999)\n"  # a repeat
        "4) heat 1995\n"
        "5. Heat (1990)\n"  # no candidate has that year
        "6. Heat\n"  # two candidates are named Heat
        "- Quiet Rooms\n"  # the one without a year, by its title alone
        "7. Laugh Factory (2010)\n"
    )
    parsed = parse_ranking(answer, items())
    # The reasoning line names Heat (1995) with its year: LLMRank's containment match.
    assert parsed.items == ("3", "6", "8", "5")
    assert parsed.duplicates == 2  # Haunted Manor again, and "heat 1995" after the first line
    assert parsed.unknown == ("2. The Godfather (1972)", "5. Heat (1990)", "6. Heat")


def test_the_earliest_and_longest_title_in_a_line_wins() -> None:
    catalog = [Item(item_id="a", title="Wave", year=1995), Item(item_id="b", title="Heat Wave",
                                                                 year=1995)]  # fmt: skip
    parsed = parse_ranking("1. Heat Wave (1995)\n2. Wave (1995)", catalog)
    assert parsed.items == ("b", "a") and parsed.duplicates == 0


def test_candidates_the_answer_leaves_out_follow_in_the_retrievers_order() -> None:
    parsed = parse_ranking("1. Quiet Rooms\n2. Heat (1995)", items())
    assert complete_ranking(parsed, CANDIDATES) == ("8", "3", "4", "7", "5", "6")


async def test_the_scored_list_and_its_metric_on_a_hand_made_answer() -> None:
    answer = "1. Haunted Manor (1999)\n2. Heat (1995)\n3. Heat (1995)\n4. Nowhere (2000)"
    fake = client({"toolrec.llmrank": lambda req: answer})
    ranker = LLMRank(fake, PromptLibrary().get("toolrec/llmrank"), prepared(), candidates=6)
    rec = await llmrank_user(ranker, 0, "u1", ["1", "2"], "3", k=4)
    # Parsed 6 3, then the ranker's order of the rest (4 7 5 8), cut to k = 4.
    assert rec.final == ("6", "3", "4", "7")
    assert (rec.parsed, rec.duplicates, rec.unknown, rec.filled) == (
        2, 1, ("4. Nowhere (2000)",), 2
    )  # fmt: skip
    assert fake.calls[0].context.role == "toolrec.llmrank"
    # The target "3" is second: Recall@4 = 1, NDCG@4 = 1 / log2(3).
    assert recall_at(rec.final, "3", 4) == 1.0
    assert abs(ndcg_at(rec.final, "3", 4) - 0.6309297535714575) < 1e-12


async def test_the_scripted_model_answers_the_candidates_in_order() -> None:
    ranker = LLMRank(client(), PromptLibrary().get("toolrec/llmrank"), prepared(), candidates=6)
    result = await ranker.rank(["1", "2"])
    assert result.candidates == tuple(CANDIDATES) and result.final == tuple(CANDIDATES)
    assert result.parsed.duplicates == 0 and result.parsed.unknown == ()


async def test_an_outage_scores_an_empty_list_and_is_counted() -> None:
    def down(req: object) -> str:
        raise ConnectionError("endpoint down")

    ranker = LLMRank(client({"toolrec.llmrank": down}), PromptLibrary().get("toolrec/llmrank"),
                     prepared())  # fmt: skip
    rec = await llmrank_user(ranker, 0, "u1", ["1"], "3", k=10)
    assert rec.final == () and rec.error == "ConnectionError: endpoint down"
    ok = LLMRankRecord(seed=0, user_id="u2", target="3", final=("3",), candidates=6, parsed=4,
                       duplicates=1, unknown=("x",), filled=2)  # fmt: skip
    assert llmrank_stats([rec, ok]) == {
        "users": 2, "errors": 1, "candidates_per_user": 6.0, "parsed_per_user": 4.0,
        "duplicates": 1, "unknown": 1, "filled_per_user": 2.0,
    }  # fmt: skip
