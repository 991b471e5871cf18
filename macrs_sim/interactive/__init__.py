"""A person in the loop: any system as an AgentChat agent, and `macrs-sim chat`."""

from macrs_sim.interactive.agent import RecommenderChatAgent, SystemTurnMessage, system_turn_of
from macrs_sim.interactive.chat import ChatOptions, ChatOutcome, chat, run_chat
from macrs_sim.interactive.person import PersonQuit, PersonSimulator, proxy_reader, terminal_input

__all__ = [
    "ChatOptions",
    "ChatOutcome",
    "PersonQuit",
    "PersonSimulator",
    "RecommenderChatAgent",
    "SystemTurnMessage",
    "chat",
    "proxy_reader",
    "run_chat",
    "system_turn_of",
    "terminal_input",
]
