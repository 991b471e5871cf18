"""Chat-Rec's candidates come from the conversation, as in the paper and RecAI (issue 38 §1):
the user's history never reaches them (DESIGN.md §3), unless asked for as its own row."""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.evaluation.interecagent.chatrec import CONVERSATION, ConversationRetriever
from macrs_sim.evaluation.interecagent.run import OneTurnSettings
from macrs_sim.evaluation.interecagent.schemas import OneTurnCase


class FakeText:
    """Cosines by hand: "heist" is close to c, then a; b is unrelated."""

    def query_similarity(self, query: str, candidates: Sequence[str]) -> dict[str, float]:
        return {"a": 0.5, "b": 0.1, "c": 0.9} if "heist" in query else {}


def _case(history: tuple[str, ...]) -> OneTurnCase:
    return OneTurnCase(case_id="c", user_id="u", history=history, target_id="b")


def test_the_conversation_not_the_history_picks_the_candidates() -> None:
    pop = {"a": 1, "b": 5, "c": 3, "d": 0}
    r = ConversationRetriever(["a", "b", "c", "d"], pop, text=FakeText())  # type: ignore[arg-type]
    said = "User: a heist film, please."
    assert r.candidates(_case(("a",)), said, 2) == ("c", "a")
    assert r.candidates(_case(("c", "b")), said, 2) == ("c", "a")  # the same for any history
    # Nothing matches: popularity, then catalog order.
    assert r.candidates(_case(()), "User: hello", 3) == ("b", "c", "a")


def test_the_default_is_the_conversation() -> None:
    assert OneTurnSettings(dataset="x", task="retrieval", n=1, k=1).chatrec_ranker == CONVERSATION
