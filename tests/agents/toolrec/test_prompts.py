"""ToolRec's prompt builders: exact strings."""

from __future__ import annotations

from autogen_core.models import SystemMessage, UserMessage

from macrs_sim.agents.toolrec import prompts as pb
from macrs_sim.prompts import PromptLibrary
from tests.agents.toolrec.helpers import films

P = pb.ToolRecPrompts.load(PromptLibrary())


def test_items_render_with_id_title_genres_director() -> None:
    catalog = films()
    assert pb.render_item(catalog, "3") == "3: Heat (1995) | Crime, Thriller | dir. Michael Mann"
    # No year: the title alone.
    assert pb.render_item(catalog, "8") == "8: Quiet Rooms | Drama | dir. Nora Still"
    assert pb.render_items(catalog, ["4", "3"]) == (
        "1. 4: Heat (1986) | Action, Thriller | dir. Dick Richards\n"
        "2. 3: Heat (1995) | Crime, Thriller | dir. Michael Mann"
    )
    assert pb.render_items(catalog, []) == "(none)"


def test_history_shows_the_last_items_oldest_first_and_skips_unknown_ids() -> None:
    catalog = films()
    assert pb.render_history_items(catalog, ["1", "99", "2", "6"], last=2) == (
        "- 2: Paris in Love (2001) | Comedy, Romance | dir. Marie Dubois\n"
        "- 6: Haunted Manor (1999) | Horror | dir. Vera Dark"
    )
    assert pb.render_history_items(catalog, ["1"], last=0) == "(none)"


def test_candidates_carry_their_tool_marks() -> None:
    text = pb.render_candidates(films(), {"6": ["retrieve[genre, 2]", "rank[decade, 1]"]})
    marks = "[retrieve[genre, 2], rank[decade, 1]]"
    assert text == f"1. 6: Haunted Manor (1999) | Horror | dir. Vera Dark {marks}"


def test_a_step_and_the_observations() -> None:
    assert pb.render_step(2, " ", "finish", "done") == (
        "Thought 2: (none)\nAction 2: finish\nObservation 2: done"
    )
    assert pb.observation_retrieved(P, "genre", 2, "ITEMS") == (
        "Here are the top 2 movie IDs and names from the recommender system with genre type:\nITEMS"
    )
    assert pb.observation_retrieved(P, "decade", 0, "(none)") == (
        "The recommender system with decade type has no movie to add that is not on the list"
        " already."
    )
    assert pb.observation_ranked(P, "actors", 1, "ITEMS") == (
        "The rank tool ordered the candidates by actors; the top 1:\nITEMS"
    )
    assert pb.observation_failed(P, "oops") == "Error: oops"


def test_simulation_messages() -> None:
    scene = pb.Scene(("genre", "decade"), "- HISTORY", "User: Hi", max_k=50, max_rounds=8)
    msgs = pb.simulation_messages(P, scene, ["STEP 1", "STEP 2"], "CANDS", 3, 6)
    assert isinstance(msgs[0], SystemMessage) and isinstance(msgs[1], UserMessage)
    system = msgs[0].content
    assert system.startswith("Assuming you are an online movie recommender, your task is")
    assert "conditioned on one attribute (genre, decade), returns K movies" in system
    assert "K is between 1 and 50. You have at most 8 actions.\n\nA good movie list" in system
    assert system.endswith('Reply with only a JSON object: {"thought": "...", '
                           '"action": "retrieve[genre, 10]"}')  # fmt: skip
    assert msgs[1].content == (
        "The user's watch history (oldest first):\n- HISTORY\n\n"
        "What the user said in this conversation:\nUser: Hi\n\n"
        "Steps so far:\nSTEP 1\nSTEP 2\n\n"
        "Current candidate list (3 movies, with the tools that found them):\nCANDS\n\n"
        "Actions left: 6. Write the next Thought and Action."
    )


def test_no_steps_yet_reads_none() -> None:
    scene = pb.Scene(("genre",), "H", "(none)", max_k=5, max_rounds=1)
    user = pb.simulation_messages(P, scene, [], "(none)", 0, 1)[1].content
    assert "Steps so far:\n(none)\n\nCurrent candidate list (0 movies" in str(user)


def test_rank_messages_use_the_papers_instruction() -> None:
    msgs = pb.rank_messages(P, "- H", "1. X", "director", 4)
    assert msgs[0].content == "You rank movies for one user. Name each movie by its ID."
    assert msgs[1].content == (
        "The user's watch history (oldest first):\n- H\n\nCandidate movies:\n1. X\n\n"
        "Please rank the above recommended movies by measuring the possibilities that the user "
        "would like to watch next most according to the movie director attribute and the given "
        "movie history records, and output top 4 movies except user's historical movies.\n"
        'Reply with only a JSON object: {"items": ["<movie ID>", ...]}'
    )
    # No attribute (rank[None, K], and the final ranking): the history alone, as the
    # authors' rerank_default_2.
    plain = pb.rank_messages(P, "- H", "1. X", "none", 4)[1].content
    assert plain == pb.rank_messages(P, "- H", "1. X", pb.CONCLUDE, 4)[1].content
    assert plain == (
        "The user's watch history (oldest first):\n- H\n\nCandidate movies:\n1. X\n\n"
        "Please rerank the above movies by measuring the possibilities that the user would like "
        "to watch next most, according to the user history, and output top 4 movies except "
        "user's historical movies.\n"
        'Reply with only a JSON object: {"items": ["<movie ID>", ...]}'
    )


def test_the_mismatch_message_names_the_refused_items() -> None:
    msg = pb.mismatch_message(P, ["99", "Heat"], 3)
    assert msg.content == (
        "These are not movie IDs of the catalog (or the user has watched them): "
        "'99'; 'Heat'. Output only movie IDs of movies the user has not watched, top 3, best "
        "first."
    )
