"""The stand-in retriever, the memory strategy's checks and the action parser, by hand."""

from __future__ import annotations

import pytest

from macrs_sim.agents.toolrec.actions import ActionError, FinishAction, ToolAction, parse_action
from macrs_sim.agents.toolrec.memory import ToolMemory
from macrs_sim.agents.toolrec.retrieval import (
    AttributeRetriever,
    RankerAttributeRetriever,
    catalog_attributes,
)
from tests.agents.toolrec.helpers import FixedRanker, films


def retriever(recent: int = 5) -> RankerAttributeRetriever:
    return RankerAttributeRetriever(FixedRanker(), films(), recent=recent)


def test_the_stand_in_meets_the_protocol_and_lists_the_catalogs_attributes() -> None:
    assert isinstance(retriever(), AttributeRetriever)
    assert catalog_attributes(films()) == ("genre", "decade", "director")


def test_items_sharing_a_recent_genre_come_first_in_ranker_order() -> None:
    # History: Heat 1995 (Crime, Thriller), Paris in Love (Comedy, Romance). Ranker order
    # without them: 4 7 5 6 8 1; sharing a genre: 4 (Thriller), 7 and 5 (Comedy).
    assert retriever().retrieve(["3", "2"], "genre", 10) == ["4", "7", "5", "6", "8", "1"]
    # Only the last item counts with recent=1: Comedy or Romance -> 7, 5.
    assert retriever(recent=1).retrieve(["3", "2"], "genre", 10) == ["7", "5", "4", "6", "8", "1"]


def test_the_year_attribute_matches_the_release_decade() -> None:
    # 1990s and 2000s: Galaxy Kids (2005) and Haunted Manor (1999); Quiet Rooms has no year.
    assert retriever().retrieve(["3", "2"], "decade", 3) == ["7", "6", "4"]


def test_seen_items_are_never_returned_and_unknown_attributes_refused() -> None:
    assert retriever().retrieve(["1"], "genre", 3) == ["7", "4", "2"]
    assert "1" not in retriever().retrieve(["1"], "director", 10)
    with pytest.raises(
        ValueError, match="unknown attribute 'actor'; known: genre, decade, director"
    ):
        retriever().retrieve(["1"], "actor", 3)


def test_memory_accepts_ids_id_with_title_and_exact_display_titles_only() -> None:
    memory = ToolMemory(films(), ["1"])
    checked = memory.check(["3", "4: Heat", "Heat (1986)", "Heat", "99", "1", "3", " 7 "])
    # "Heat" alone names two films (a remake pair): refused rather than guessed.
    assert checked.valid == ("3", "4", "7")
    assert checked.invalid == ("Heat", "99", "1")


def test_memory_restricts_to_the_allowed_candidates() -> None:
    checked = ToolMemory(films(), []).check(["2", "5"], allowed=["5"])
    assert (checked.valid, checked.invalid) == (("5",), ("2",))


def test_memory_stores_sets_with_tool_marks_and_keeps_the_current_list() -> None:
    memory = ToolMemory(films(), ["1"])
    memory.add_retrieved(1, "retrieve[genre, 2]", ["7", "4"])
    memory.add_retrieved(2, "retrieve[decade, 2]", ["4", "2"])
    assert memory.current == ["7", "4", "2"]
    assert memory.marks() == {"7": ["retrieve[genre, 2]"],
                              "4": ["retrieve[genre, 2]", "retrieve[decade, 2]"],
                              "2": ["retrieve[decade, 2]"]}  # fmt: skip
    memory.set_ranked(3, "rank[genre, 2]", ["2", "7"])
    assert memory.current == ["2", "7"]
    assert [s.mark for s in memory.sets] == ["retrieve[genre, 2]", "retrieve[decade, 2]",
                                             "rank[genre, 2]"]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("retrieve[genre, 10]", ToolAction(tool="retrieve", attribute="genre", k=10)),
        ("Retrieval[genre,15]", ToolAction(tool="retrieve", attribute="genre", k=15)),
        (" Rank[ Release Year , $5] ", ToolAction(tool="rank", attribute="release year", k=5)),
        ("finish", FinishAction()),
        ("Finish[]", FinishAction()),
    ],
)
def test_actions_parse(text: str, expected: object) -> None:
    assert parse_action(text, max_k=50) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("search[genre, 3]", "unknown tool 'search'; the tools are retrieve, rank and finish"),
        (
            "retrieve[genre]",
            "cannot read the action 'retrieve[genre]'; write retrieve[attribute, K]",
        ),
        ("retrieve[genre, 51]", "retrieve[genre, 51]: K must be between 1 and 50"),
        ("rank[genre, 0]", "rank[genre, 0]: K must be between 1 and 50"),
        ("retrieve[ , 3]", "retrieve: the attribute must be 1 to 40 characters"),
        ("I think I am done", "cannot read the action 'I think I am done'"),
    ],
)
def test_bad_actions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ActionError) as err:
        parse_action(text, max_k=50)
    assert str(err.value).startswith(message)
