"""The question builders, with exact strings: the templates are data, the builders pure."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.data.catalog import Catalog
from macrs_sim.evaluation.recmind.cases import TaskCase
from macrs_sim.evaluation.recmind.questions import QuestionSettings, build_question
from macrs_sim.prompts import PromptLibrary

CASE = TaskCase(
    user_id="u1",
    history=("m1", "m4", "m5", "m6"),
    history_ratings=(4.0, None, 3.5, 5.0),
    target="m3",
    target_rating=2.0,
    candidates=("m7", "m3", "m2"),
)
SETTINGS = QuestionSettings(top_n=2, history_len=3, shots=2, low=0.5, high=5.0)
ANSWER_FORMAT = (
    "Answer with one candidate per line, best first: its id, then its title, as in the list "
    "of candidates. Write nothing else."
)


def ask(catalog: Catalog, prompts: PromptLibrary, task: str, prompting: str) -> str:
    items = {i.item_id: i for i in catalog}
    return build_question(task, prompting, CASE, items, prompts, SETTINGS)  # type: ignore[arg-type]


def test_rating_zero_shot_shows_no_history(catalog: Catalog, prompts: PromptLibrary) -> None:
    assert ask(catalog, prompts, "rating", "zero-shot") == (
        "How will user u1 rate the movie Up (2009)? Ratings go from 0.5 (lowest) to 5 (highest).\n"
        "Answer with the rating only: one number from 0.5 to 5."
    )


def test_rating_few_shot_shows_the_last_rated_items(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    # two shots: the two most recent rated items (Alien has no rating and is skipped)
    assert ask(catalog, prompts, "rating", "few-shot") == (
        "Here are some movies user u1 has rated, from 0.5 (lowest) to 5 (highest):\n"
        "Toy Story (1995): 3.5\nAmélie (2001): 5\n\n"
        "How will user u1 rate the movie Up (2009)?\n"
        "Answer with the rating only: one number from 0.5 to 5."
    )


def test_sequential_zero_shot(catalog: Catalog, prompts: PromptLibrary) -> None:
    assert ask(catalog, prompts, "sequential", "zero-shot") == (
        "User u1 has interacted with the following movies in chronological order:\n"
        "- Alien (1979)\n- Toy Story (1995)\n- Amélie (2001)\n\n"
        "Please recommend the next movie that the user might watch. Choose the top 2 movies to "
        "recommend from the candidates below, in order of priority, from highest to lowest.\n"
        "Candidates:\nm7 Heat (1986)\nm3 Up (2009)\nm2 The Matrix (1999)\n\n" + ANSWER_FORMAT
    )


def test_direct_zero_shot_names_the_user_and_the_candidates_only(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    """§4.3's prompt: the user id and the candidates; the history is the agent's to fetch."""
    assert ask(catalog, prompts, "direct", "zero-shot") == (
        "From the candidate movies listed below, choose the top 2 movies to recommend to user u1 "
        "and rank them in order of priority, from highest to lowest.\n"
        "Candidates:\nm7 Heat (1986)\nm3 Up (2009)\nm2 The Matrix (1999)\n\n" + ANSWER_FORMAT
    )


def test_direct_few_shot_examples_come_from_the_history(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    assert ask(catalog, prompts, "direct", "few-shot") == (
        "Examples of a movie user u1 chose after others:\n"
        "After Heat (1995), Alien (1979), the user watched Toy Story (1995).\n"
        "After Heat (1995), Alien (1979), Toy Story (1995), the user watched Amélie (2001).\n\n"
        "From the candidate movies listed below, choose the top 2 movies to recommend to user u1 "
        "and rank them in order of priority, from highest to lowest.\n"
        "Candidates:\nm7 Heat (1986)\nm3 Up (2009)\nm2 The Matrix (1999)\n\n" + ANSWER_FORMAT
    )


def test_explanation_zero_shot(catalog: Catalog, prompts: PromptLibrary) -> None:
    assert ask(catalog, prompts, "explanation", "zero-shot") == (
        "User u1 watched the movie Up (2009). Explain to user u1, in two or three sentences, "
        "why this movie suits them.\nAnswer with the explanation only."
    )


def test_no_question_shows_the_target_outside_its_own_slot(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    for task in ("sequential", "direct"):
        for prompting in ("zero-shot", "few-shot"):
            text = ask(catalog, prompts, task, prompting)
            assert text.count("Up (2009)") == 1  # in the candidate list only


def test_judge_sees_history_item_facts_and_the_explanation(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    from macrs_sim.evaluation.recmind.judge import judge_messages, judge_template

    items = {i.item_id: i for i in catalog}
    case = TaskCase("u1", ("m2", "m4"), (None, None), "m1", None)
    system, user = judge_messages(judge_template(prompts), case, items, "Pacino.", 1)
    assert str(system.content).startswith("You are an impartial evaluator of explanations")
    assert user.content == (
        "The user watched these movies, oldest first:\n- Alien (1979)\n\n"
        "The movie the explanation is about: Heat (1995)\n"
        "What the catalog says about it: genres: Crime, Thriller; director: Michael Mann; "
        "cast: Al Pacino, Robert De Niro\n\n"
        "The explanation:\nPacino.\n\n"
        "Score the explanation from 1 (poor) to 5 (excellent) on:\n"
        "(1) quality: is it fluent, specific and informative about the movie?\n"
        "(2) rationality: do its reasons fit this user's history and the movie's real "
        "attributes, without inventing facts?\n\n"
        'Reply in JSON with "quality" and "rationality", each an integer from 1 to 5.'
    )


def test_explanation_few_shot_example_is_the_fixed_one_the_page_states(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    """The one explanation example is about another user and another film; the page's
    few-shot row must say so, not that it comes from the user's history."""
    text = ask(catalog, prompts, "explanation", "few-shot")
    assert text.startswith(
        "Here is an example of a good explanation, for another user and another movie:\n"
        "User x01, who had watched Alien (1979) and The Thing (1982), watched Event Horizon"
    )
    assert "Heat (1995)" not in text and "Toy Story (1995)" not in text  # not u1's history
    page = (Path(__file__).parents[3] / "docs" / "faithfulness.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| Zero-shot and few-shot"))
    assert "explanation's one example is fixed" in row and "| deviates:" in row
