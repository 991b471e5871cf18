"""The one-turn task's parts: prompt builders (exact text), the generated dialogue turned into
the request, metrics, case drawing and the reference rankers, all worked out by hand."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.splits import Interactions, Split, from_pairs, leave_one_out
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent import prompts as pb
from macrs_sim.evaluation.interecagent.cases import draw_cases
from macrs_sim.evaluation.interecagent.metrics import case_score, ndcg_at, recall_at, target_rank
from macrs_sim.evaluation.interecagent.requests import (
    conversation_utterances,
    dialogue_state,
    redact,
    with_instruction,
)
from macrs_sim.evaluation.interecagent.schemas import (
    GeneratedConversation,
    GeneratedMessage,
    OneTurnCase,
)
from macrs_sim.evaluation.interecagent.systems import RankerSystem
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Utterance
from macrs_sim.simulators.target_profile import title_guard


def test_target_info_leaves_the_title_out(catalog: Catalog) -> None:
    assert pb.target_info(catalog["m1"]) == (
        "released in 1995; genres: Crime, Thriller; directed by Michael Mann;"
        " starring Al Pacino, Robert De Niro."
    )
    assert pb.target_info(catalog["m8"]) == (
        "released in 1972; genres: Crime, Drama; keywords: mafia family, succession."
    )
    # Remakes share names: titles carry their year.
    assert pb.titles(catalog, ["m1", "m7"]) == "Heat (1995); Heat (1986)"


def test_retrieval_prompt_exact(catalog: Catalog) -> None:
    p = pb.OneTurnPrompts.load(PromptLibrary(), "retrieval")
    system, user = pb.retrieval_messages(p, "Heat (1986)", "released in 1999.")
    assert system.content == (
        "You are a helpful assistant who is good at imitating human to ask for recommendations."
    )
    text = str(user.content)
    assert text.startswith(
        "Assume that a user is looking for some movies recommendation, and the user would chat"
        " with a conversational recommendation assistant for help. And user's historical"
        " movies are: Heat (1986)\nInformation about target movie that the user are looking"
        " for: released in 1999.\nPlease generate a conversation"
    )
    assert "7. Each conversation should consist of 2-5 rounds.\n" in text
    assert text.endswith('{"role": "User", "text": "xxx", "mentioned_items": ["ITEM1", "ITEM2"]}')
    assert pb.instruction(p, 5) == "Please give me 5 recommendations based on the chat history."


def test_ranking_prompt_exact() -> None:
    p = pb.OneTurnPrompts.load(PromptLibrary(), "ranking")
    _, user = pb.ranking_messages(p, "A (1995)", "C (1990); D (1991)", 2)
    assert str(user.content).startswith(
        "Assume that a user is looking for some movies recommendation, and the user would chat"
        " with a conversational recommendation assistant for help. And user's historical"
        " movies are: A (1995)\nThe user would give 2 candidates items as below and ask the"
        " assistant to rank those candidates: C (1990); D (1991)\n\nPlease imitate the user"
    )
    assert "3. Give all 2 candidates in the question.\n" in str(user.content)
    assert pb.instruction(p, 20) == "Please rank these candidate items based on the chat history."


def _conv(*pairs: tuple[str, str]) -> GeneratedConversation:
    return GeneratedConversation(messages=[GeneratedMessage(role=r, text=t) for r, t in pairs])


def test_conversation_becomes_the_dialogue_before_the_recommendation() -> None:
    conv = _conv(
        ("Assistant", "Hi! How can I help?"),  # a greeting before the user: dropped
        ("User", "I liked Heat."), (" user ", "  A lot. "),  # one speaker twice: joined
        ("Assistant", ""),  # empty: skipped
        ("assistant", "What now?"), ("Human", "Something darker."),
        ("Assistant", "Try movie."), ("Assistant", "Or movie."),  # the recommendation: dropped
    )  # fmt: skip
    assert conversation_utterances(conv) == [
        Utterance(speaker="user", text="I liked Heat. A lot."),
        Utterance(speaker="system", text="What now?"),
        Utterance(speaker="user", text="Something darker."),
    ]
    assert conversation_utterances(_conv(("Assistant", "Here: movie."))) == []


def test_request_state_and_instruction() -> None:
    utts = [Utterance(speaker="user", text="a"), Utterance(speaker="system", text="b"),
            Utterance(speaker="user", text="c")]  # fmt: skip
    full = with_instruction(utts, "Please give me 2 recommendations.")
    assert full[-1].text == "c Please give me 2 recommendations." and full[:2] == tuple(utts[:2])
    state = dialogue_state("c-1", full)
    assert state.turn == 2 and state.utterances() == list(full)
    assert state.exchanges[0].system.text == "b"


def test_the_targets_title_is_redacted_not_its_remake(catalog: Catalog) -> None:
    utts = [Utterance(speaker="user", text="I liked Heat (1986)."),
            Utterance(speaker="system", text="Heat is great."),
            Utterance(speaker="user", text="Something with Al Pacino.")]  # fmt: skip
    out, found = redact(utts, title_guard(catalog["m1"]))
    # The remake shares the name: the user cannot say it without naming the target.
    assert found and out[0].text == "I liked that movie (1986)."
    # The generated assistant's words reach the system under test too (issue 38 §1).
    assert out[1] == Utterance(speaker="system", text="that movie is great.")
    assert out[2:] == utts[2:]
    assert redact(utts[2:], title_guard(catalog["m1"])) == (utts[2:], False)


def test_metrics_by_hand() -> None:
    assert target_rank(["a", "t", "t"], "t") == 2 and target_rank([], "t") is None
    assert (recall_at(5, 5), recall_at(6, 5), recall_at(None, 5)) == (1.0, 0.0, 0.0)
    assert ndcg_at(1, 20) == 1.0 and ndcg_at(3, 20) == 0.5 and ndcg_at(21, 20) == 0.0
    assert math.isclose(ndcg_at(2, 2), 1 / math.log2(3))
    assert case_score("retrieval", ["x", "t"], "t", 1) == (2, 0.0)
    assert case_score("ranking", ["x", "y", "t"], "t", 3) == (3, 0.5)


SEQS = {"u1": ["a", "b", "c", "d"], "u2": ["b", "c", "e"], "u3": ["a", "b"], "u4": ["e", "d", "c"]}


def _data() -> tuple[Interactions, Split]:
    data = from_pairs("toy", "toy|fp", list("abcdef"), [(u, i) for u, s in SEQS.items() for i in s])
    return data, leave_one_out(data)


def test_cases_are_leave_one_out_and_seeded() -> None:
    data, split = _data()
    cases = draw_cases(data, split, "retrieval", n=3, k=5, seed=7, history_len=2)
    # u3 has two items: it only trains. History: the last two before the target.
    by_user = {c.user_id: (c.history, c.target_id) for c in cases}
    assert by_user == {"u1": (("b", "c"), "d"), "u2": (("b", "c"), "e"), "u4": (("e", "d"), "c")}
    again = draw_cases(data, split, "retrieval", n=3, k=5, seed=7, history_len=2)
    assert again == cases
    with pytest.raises(ConfigError, match="--n 4: toy has only 3 test users"):
        draw_cases(data, split, "retrieval", n=4, k=5, seed=0)


def test_ranking_candidates_are_the_target_and_unseen_items() -> None:
    data, split = _data()
    cases = draw_cases(data, split, "ranking", n=3, k=3, seed=1)
    u1 = next(c for c in cases if c.user_id == "u1")
    assert sorted(u1.candidates) == ["d", "e", "f"]  # u1 saw a-d: e, f are the only negatives
    for c in cases:
        assert c.target_id in c.candidates and len(set(c.candidates)) == 3
        assert not set(c.candidates) & set(SEQS[c.user_id]) - {c.target_id}
    with pytest.raises(ConfigError, match="user 'u1' has only 2 items never interacted with"):
        draw_cases(data, split, "ranking", n=3, k=4, seed=1)


class FixedRanker:
    kind = "fixed"
    item_ids: tuple[str, ...] = ("a", "b", "c", "d")

    def score(self, histories: object) -> np.ndarray:
        scores = np.array([[1.0, 3.0, 3.0, 2.0]], dtype=np.float32)
        scores[0, 0] = -np.inf  # "a" is in the history
        return scores


def test_reference_ranker_orders_candidates_ties_as_given() -> None:
    case = OneTurnCase(case_id="c", user_id="u", history=("a",), target_id="d",
                       candidates=("d", "c", "x", "b", "a"))  # fmt: skip
    system = RankerSystem("fixed", FixedRanker(), FixedRanker.item_ids)
    # c and b tie (3): given order; d 2; x unknown and a seen: -inf, last, given order.
    assert system.answer(case, "ranking", 5).items == ("c", "b", "d", "x", "a")
    assert system.answer(case, "retrieval", 2).items == ("b", "c")


def test_random_reference_is_seeded_per_case() -> None:
    case = OneTurnCase(case_id="c", user_id="u", history=("a",), target_id="d",
                       candidates=("d", "c", "b"))  # fmt: skip
    first = RankerSystem("random", None, ("a", "b", "c", "d"), seed=3)
    assert first.answer(case, "ranking", 3).items == first.answer(case, "ranking", 3).items
    assert sorted(first.answer(case, "ranking", 3).items) == ["b", "c", "d"]
    picked = first.answer(case, "retrieval", 5).items
    assert sorted(picked) == ["b", "c", "d"]  # all unseen items, the history's "a" never


def test_tools_see_counts_without_the_test_targets() -> None:
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import demo_dataset
    from macrs_sim.data.splits import interactions_of
    from macrs_sim.evaluation.interecagent.models import without_targets

    dataset = demo_dataset(DataConfig())
    data = interactions_of(dataset, DataConfig())
    split = leave_one_out(data)
    seen = without_targets(dataset, data, split)
    held_out = Counter(data.item_ids[c.target] for c in split.test)
    assert sum(dataset.popularity.values()) - sum(seen.popularity.values()) == len(split.test)
    assert all(seen.popularity[i] == n - held_out[i] for i, n in dataset.popularity.items())
    # Same ids and titles (text vectors reused); the tools' catalog database is keyed by counts.
    assert seen.fingerprint == dataset.fingerprint and seen.catalog is dataset.catalog
