"""A person in the loop: any system as an AgentChat agent, and `macrs-sim chat`.

Names are imported on first use: the simulator registry imports `person_spec` from here to
list kinds, and that must not load AgentChat and the campaign set-up."""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from macrs_sim.interactive.agent import (
        RecommenderChatAgent,
        SystemTurnMessage,
        system_turn_of,
    )
    from macrs_sim.interactive.chat import ChatOptions, ChatOutcome, chat, run_chat
    from macrs_sim.interactive.person import (
        PersonQuit,
        PersonSimulator,
        proxy_reader,
        terminal_input,
    )

_HOMES = {
    "RecommenderChatAgent": "agent", "SystemTurnMessage": "agent", "system_turn_of": "agent",
    "ChatOptions": "chat", "ChatOutcome": "chat", "chat": "chat", "run_chat": "chat",
    "PersonQuit": "person", "PersonSimulator": "person", "proxy_reader": "person",
    "terminal_input": "person",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


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
