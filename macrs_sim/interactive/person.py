"""A person plays the user: what they type is the user's turn.

`PersonSimulator` meets the `UserSimulator` protocol, so a session with a person is a
dialogue like any other. Acceptance is decided as in campaigns: a recommended item whose
grounded id is the target's (a scored session); the person's words only say it. Where
the text comes from is a function, typically an AgentChat `UserProxyAgent` reading the
terminal (`proxy_reader(UserProxyAgent(..., input_func=terminal_input()))`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from autogen_agentchat.agents import UserProxyAgent
from autogen_agentchat.messages import TextMessage
from autogen_core import CancellationToken

from macrs_sim.protocol import SystemTurn, UserTurn

QUIT_COMMANDS = frozenset({"/quit", "/exit", "/q"})
# What `terminal_input` answers at the end of input (Ctrl-D), so it ends like /quit.
END_OF_INPUT = "/quit"
# A line that is not UTF-8 (raw bytes pasted from elsewhere, a terminal set to another
# encoding) is no turn: the person is asked again, as for an empty line.
NOT_UTF8 = "that line is not valid UTF-8 text; please type it again"

# The person's next line: the opening (turn None) or the answer to the system's turn.
ReadReply = Callable[[SystemTurn | None], Awaitable[str]]
AsyncInputFunc = Callable[[str, CancellationToken | None], Awaitable[str]]


class PersonQuit(Exception):
    """The person ended the session (/quit, or Ctrl-D at the prompt)."""


class PersonSimulator:
    def __init__(self, read: ReadReply, *, target_id: str | None = None) -> None:
        self._read = read
        self.target_id = target_id

    @property
    def scored(self) -> bool:
        return self.target_id is not None

    def accepts(self, turn: SystemTurn) -> bool:
        """A recommended item grounded to the target (never, without a target)."""
        return self.target_id is not None and any(i.item_id == self.target_id for i in turn.items)

    async def open(self) -> UserTurn:
        return UserTurn(text=await self._line(None))

    async def reply(self, turn: SystemTurn) -> UserTurn:
        return UserTurn(text=await self._line(turn), accepted=self.accepts(turn))

    async def _line(self, turn: SystemTurn | None) -> str:
        text = ""
        while not text:  # an empty line is no turn: ask again
            text = (await self._read(turn)).strip()
        if text.lower() in QUIT_COMMANDS:
            raise PersonQuit(text)
        return text


def proxy_reader(proxy: UserProxyAgent, speaker: str = "system") -> ReadReply:
    """The person's lines from an AgentChat `UserProxyAgent`, shown the system's reply."""

    async def read(turn: SystemTurn | None) -> str:
        heard = [] if turn is None else [TextMessage(content=turn.text, source=speaker)]
        response = await proxy.on_messages(heard, CancellationToken())
        return response.chat_message.to_model_text()

    return read


def terminal_input(
    prompt: str = "you> ", read_line: Callable[[str], str] = input
) -> AsyncInputFunc:
    """A `UserProxyAgent` input function reading the terminal; Ctrl-D reads as /quit.

    It reads on the event loop's own (main) thread, on purpose: Ctrl-C then interrupts
    the read at once, where a read in a worker thread would hold the process open until
    Enter. Nothing else runs while the person types, so blocking the loop costs nothing.
    """

    async def read(_prompt: str, _token: CancellationToken | None) -> str:
        while True:
            try:
                line = read_line(prompt)
            except EOFError:
                print()  # Ctrl-D leaves the cursor after the prompt
                return END_OF_INPUT
            except UnicodeDecodeError:  # a strict stdin: the line is gone
                line = None
            if line is not None and is_utf8(line):
                return line
            print(NOT_UTF8)

    return read


def is_utf8(text: str) -> bool:
    """False for text holding lone surrogates: bytes that were not UTF-8, kept by a
    `surrogateescape` stdin (the C.UTF-8 locale's), that no file or store can encode."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
