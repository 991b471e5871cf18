"""`macrs-sim chat [SCENARIO]`: a person plays the user against one system of a scenario."""

from __future__ import annotations

import argparse
from typing import Any

HELP = "talk to a system yourself (you play the user); the session is saved as a run"


def add_chat_command(sub: Any) -> None:
    chat = sub.add_parser("chat", help=HELP, description=HELP)
    chat.add_argument(
        "scenario", nargs="?", help="scenario file (default: MACRS and single-LLM, embedded model)"
    )
    chat.add_argument("--system", help="which of the scenario's systems (default: the first)")
    chat.add_argument(
        "--explain",
        action="store_true",
        help="show each turn's reasoning (MACRS: candidates, planner, profile, suggestions)",
    )
    chat.add_argument(
        "--target",
        metavar="TITLE",
        help="a catalog title you are looking for: makes the session scored as in campaigns",
    )
    chat.add_argument("--output-dir", help="where the run directory goes (default: the scenario's)")
    chat.set_defaults(func=_chat)


def _chat(args: argparse.Namespace) -> int:
    from autogen_agentchat.agents import UserProxyAgent
    from rich.console import Console

    from macrs_sim.config import load_scenario, output_dir_option
    from macrs_sim.interactive.chat import ChatOptions, default_chat_scenario, run_chat
    from macrs_sim.interactive.person import proxy_reader, terminal_input
    from macrs_sim.interactive.render import ChatView

    scenario = load_scenario(args.scenario) if args.scenario else default_chat_scenario()
    options = ChatOptions(
        system=args.system,
        target=args.target,
        output_dir=output_dir_option(args.output_dir),
    )
    person = UserProxyAgent("person", description="A person", input_func=terminal_input())
    view = ChatView(Console(highlight=False), explain=args.explain)
    run_chat(scenario, options, proxy_reader(person), view)
    return 0
