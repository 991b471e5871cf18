"""RecMind's prompt builders: pure, checked against exact strings."""

from __future__ import annotations

from autogen_core.models import SystemMessage

from macrs_sim.agents.recmind import prompts as pb
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.tree import ReasoningTree
from macrs_sim.llm.base import message_text
from macrs_sim.prompts import PromptLibrary

P = pb.RecMindPrompts.load(PromptLibrary())


def _tree() -> ReasoningTree:
    tree = ReasoningTree(planner="self-inspiring", step_limit=3)
    tree.add(None, {"thought": "Find heists ", "action": "Search", "argument": " heist",
                    "observation": "Heat (1995) is a heist film.\n"})  # fmt: skip
    tree.add(None, {"path": 2, "thought": "Ratings", "action": "SQL", "argument": "avg?"})
    return tree


def test_states_render_as_thought_action_observation_with_path_labels() -> None:
    nodes = _tree().nodes
    assert pb.render_states(nodes) == (
        "Step 1\nThought: Find heists\nAction: Search[heist]\n"
        "Observation: Heat (1995) is a heist film.\n\n"
        "Step 1\nThought: Ratings\nAction: SQL[avg?]"
    )
    assert pb.render_node(nodes[1], with_path=True).startswith("[path 2] Step 1\n")
    assert pb.render_states([]) == "(none)"


def test_tool_descriptions_follow_the_switches() -> None:
    text = pb.tools_text(P, sql=True, search=False, summarize=True, database_info="items(item_id)")
    assert text == (
        "- SQL[question], which aims to search for the answer to a question from the database. "
        "You can only put forward questions based on the available information in the database. "
        "Available information and schema of the database is provided in: items(item_id)\n"
        "- Summarize[content], which condenses extensive text into a shorter version while "
        "retaining the core information and meaning.\n"
        "- Finish[answer], which returns the answer and finishes the task."
    )


def test_step_prompt_cot_and_self_inspiring() -> None:
    cot = pb.step_messages(P, "TOOLS", "Rate it.", "(none)")
    assert isinstance(cot[0], SystemMessage)
    assert message_text(cot[0]).startswith(
        "Perform a recommendation task with interleaving Thought, Action, and Observation "
        "steps. Thought can reason about the current situation, and Action can be the "
        'following types:\nTOOLS\nReply with only a JSON object with the keys "thought", '
        '"action" (one of SQL, Search, Summarize, Finish),'
    )
    assert message_text(cot[1]) == "Task: Rate it.\n\nSteps so far:\n(none)\n\nWrite the next step."
    si = pb.step_messages(P, "TOOLS", "Rate it.", "S", all_paths=True)
    assert message_text(si[1]) == (
        "Task: Rate it.\n\nEvery step explored so far, on every path (path numbers in "
        "brackets); the last path is the one you continue:\nS\n\n"
        "Write the next step of the last path, using what every path found."
    )


def test_vote_prompt_lists_numbered_options() -> None:
    options = [StepOutput(thought="a", action="SQL", argument="q"),
               StepOutput(thought="b ", action=" Finish", argument="4 ")]  # fmt: skip
    (msg,) = pb.vote_messages(P, "Rate it.", "(none)", options)
    assert message_text(msg) == (
        "Given an instruction and several choices, decide which choice is most promising. "
        "Your instruction is: Rate it.\nSteps so far:\n(none)\nChoose the best next step.\n"
        "Your available options are:\n1. Thought: a Action: SQL[q]\n"
        "2. Thought: b Action: Finish[4]\nAnalyze each choice, then give the integer id of the "
        'best choice. Reply with only a JSON object: {"analysis": "...", "best": 1}'
    )


def test_inspire_and_sql_prompts_carry_the_papers_wording() -> None:
    (msg,) = pb.inspire_messages(P, "Rate it.", "(none)", "Step 1")
    assert message_text(msg).startswith(
        "You are given multi-step problem-solving steps towards finishing the task: Rate it.\n"
        "The previous steps are:\n(none)\nYou already have the thought, action, and "
        "observation in the current step:\nStep 1\nYour mission is to decide if there is an "
        "alternative thought in the current step"
    )
    (sql,) = pb.to_sql_messages(P, "Best rated?", "items(item_id)")
    assert message_text(sql) == (
        "Your mission is to convert SQL query from given question: Best rated?\n"
        "The information about the tables in the database is: items(item_id)\n"
        "Only output the SQL query."
    )
    (text,) = pb.sql_text_messages(P, "Best rated?", "SELECT 1", "1\n1")
    assert message_text(text) == (
        "Your mission is to convert SQL query execution results to meaningful sentences, "
        "which should be the answer to the question: Best rated?\nThe query generated for "
        "this question is: SELECT 1\nHere is the database result:\n1\n1"
    )


def test_tasks_name_the_user_and_where_the_history_is() -> None:
    assert pb.offline_task(P, "How will user 42 rate Heat?", "42") == (
        "How will user 42 rate Heat?\nThe database table user_ratings holds every user's "
        "visible history (and ratings, where known), user 42's included.\nWhen the question "
        'asks for a ranked list, Finish with the chosen candidates in "items", best first, '
        "each as the candidate list writes it."
    )
    task = pb.dialogue_task(P, "u7", 3, "(none)", "A heist film?")
    assert task.startswith("You are a conversational movie recommender talking with user u7.")
    assert task.endswith("Conversation so far:\n(none)\nThe user's latest message: A heist film?")
