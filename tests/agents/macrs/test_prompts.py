"""Prompt builders are pure: typed memory in, exact text out."""

from macrs_sim.agents.macrs import prompts as p
from macrs_sim.agents.macrs.messages import (
    CandidateReply,
    FinalListRequest,
    InfoReflectRequest,
    PlanRequest,
    RespondRequest,
    StrategyReflectRequest,
    TrajectoryStep,
)
from macrs_sim.agents.macrs.schemas import DemandPair, UserProfile
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Utterance

HISTORY = [
    Utterance(speaker="user", text="I want a funny movie."),
    Utterance(speaker="system", text="Any favourite era?"),
    Utterance(speaker="user", text="The nineties."),
]
PROFILE = UserProfile(
    current_demand=[
        DemandPair(attribute="genre", value="comedy"),
        DemandPair(attribute="era", value="1990s"),
    ],
    browsing_history=["Toy Story (1995)"],
)


def test_ask_responder_prompt_holds_history_profile_and_suggestion(prompts: PromptLibrary) -> None:
    req = RespondRequest(
        turn=2, dialogue_history=HISTORY, profile=PROFILE, suggestion="Ask about actors."
    )
    system, user = p.responder_messages(prompts.get("responder_ask"), req)
    assert system.content == (
        "You are the Asking Agent of a conversational movie recommender system. "
        "You should elicit user preferences by asking questions."
    )
    assert user.content == (
        "Dialogue history:\n"
        "User: I want a funny movie.\nAssistant: Any favourite era?\nUser: The nineties.\n\n"
        "User profile:\n"
        "Current demand: genre: comedy; era: 1990s\nBrowsing history: Toy Story (1995)\n\n"
        "Suggestion for this turn: Ask about actors.\n\n"
        "Write your next message to the user: one short question in one or two sentences. "
        "Do not recommend a movie."
    )


def test_empty_memory_renders_as_none(prompts: PromptLibrary) -> None:
    req = RespondRequest(turn=1, dialogue_history=[], profile=UserProfile(), suggestion="")
    _, user = p.responder_messages(prompts.get("responder_chat"), req)
    assert str(user.content).startswith(
        "Dialogue history:\n(none)\n\n"
        "User profile:\nCurrent demand: (none)\nBrowsing history: (none)\n\n"
        "Suggestion for this turn: (none)\n\n"
    )


def test_planner_prompt_holds_acts_experiences_and_candidates(prompts: PromptLibrary) -> None:
    req = PlanRequest(
        turn=3,
        dialogue_history=HISTORY[:1],
        act_history=["ask", "recommend"],
        experiences=["Ask before recommending."],
        candidates={
            "ask": CandidateReply(act="ask", text="Which actor?"),
            "chat": CandidateReply(act="chat", text="I adore slapstick."),
            "recommend": CandidateReply(
                act="recommend", text="Try Toy Story.", item_title="Toy Story (1995)"
            ),
        },
    )
    _, user = p.planner_messages(prompts.get("planner"), req)
    assert user.content == (
        "Dialogue history:\nUser: I want a funny movie.\n\n"
        "Dialogue act history: ask, recommend\n\n"
        "Corrective experiences: Ask before recommending.\n\n"
        "Candidate responses:\n[ask] Which actor?\n[chat] I adore slapstick.\n"
        "[recommend] Try Toy Story.\n\n"
        'Reply in JSON with "step1", "step2", "step3" (one short sentence each, following '
        'the three steps) and "choice" (one of "ask", "chat", "recommend").'
    )


def test_trajectory_rendering(prompts: PromptLibrary) -> None:
    step = TrajectoryStep(
        turn=2,
        profile=PROFILE,
        act="recommend",
        system_response="Try Heat.",
        user_feedback="Too violent.",
    )
    _, user = p.strategy_reflector_messages(
        prompts.get("strategy_reflector"), StrategyReflectRequest(turn=3, trajectory=[step])
    )
    assert str(user.content).startswith(
        "Trajectory since the last failed recommendation:\nTurn 2\n"
        "Current demand: genre: comedy; era: 1990s\nBrowsing history: Toy Story (1995)\n"
        "System (recommend): Try Heat.\nUser: Too violent.\n\n"
    )


def test_info_reflector_asks_for_every_mentioned_movie(prompts: PromptLibrary) -> None:
    req = InfoReflectRequest(
        turn=3,
        profile=PROFILE,
        system_response="How about Heat?",
        user_feedback="I haven't seen Heat, but its director did not meet my expectations.",
    )
    _, user = p.info_reflector_messages(prompts.get("info_reflector"), req)
    assert user.content == (
        "Past user profile:\n"
        "Current demand: genre: comedy; era: 1990s\nBrowsing history: Toy Story (1995)\n\n"
        "System response: How about Heat?\n"
        "User feedback: I haven't seen Heat, but its director did not meet my expectations.\n\n"
        'Reply in JSON with "current_demand" (a list of {"attribute": ..., "value": ...} '
        "pairs, one for each movie attribute the user wants, e.g. "
        '{"attribute": "genre", "value": "comedy"}) and "browsing_history" (a list of the '
        "titles of all movies the user has mentioned so far, those in the past profile "
        "included, whether the user watched, liked or turned them down)."
    )


def test_final_list_prompt_and_its_follow_up(prompts: PromptLibrary) -> None:
    first = FinalListRequest(turn=6, dialogue_history=HISTORY[:1], profile=PROFILE, k=3)
    _, user = p.final_list_messages(prompts.get("final_list"), first)
    head = (
        "Dialogue history:\nUser: I want a funny movie.\n\n"
        "User profile:\n"
        "Current demand: genre: comedy; era: 1990s\nBrowsing history: Toy Story (1995)\n\n"
    )
    assert user.content == head + (
        "Recommend a list of 3 different movies that the user is most likely looking for, "
        'best first. Reply in JSON with "titles": a list of 3 movie titles with their years, '
        'e.g. "Heat (1995)".'
    )
    more = first.model_copy(update={"k": 2, "given": ["Clueless (1995)", "Big (1988)"]})
    _, user = p.final_list_messages(prompts.get("final_list"), more)
    assert user.content == head + (
        "You have already recommended these movies: Clueless (1995); Big (1988)\n"
        "Recommend 2 more different movies that the user is most likely looking for, best "
        "first, none of those already recommended. "
        'Reply in JSON with "titles": a list of 2 movie titles with their years, '
        'e.g. "Heat (1995)".'
    )
