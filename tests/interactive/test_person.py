"""PersonSimulator: a person's lines as user turns, acceptance by grounded id."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from autogen_agentchat.agents import UserProxyAgent
from autogen_core import CancellationToken

from macrs_sim.interactive.person import (
    PersonQuit,
    PersonSimulator,
    ReadReply,
    proxy_reader,
    terminal_input,
)
from macrs_sim.protocol import ItemRef, SystemTurn, UserTurn
from macrs_sim.simulators.base import UserSimulator

MATRIX = SystemTurn(
    act="recommend", text="Try The Matrix.", items=(ItemRef(title="The Matrix", item_id="m2"),)
)
UNGROUNDED = SystemTurn(act="recommend", text="Try Matrix 9.", items=(ItemRef(title="Matrix 9"),))


def lines(*texts: str) -> tuple[ReadReply, list[SystemTurn | None]]:
    """A reader answering from `texts`, and the turns it was shown."""
    pending: Iterator[str] = iter(texts)
    shown: list[SystemTurn | None] = []

    async def read(turn: SystemTurn | None) -> str:
        shown.append(turn)
        return next(pending)

    return read, shown


async def test_scored_person_accepts_only_the_target_id() -> None:
    read, shown = lines("Something mind-bending ", "no", "yes!")
    person = PersonSimulator(read, target_id="m2")
    assert isinstance(person, UserSimulator) and person.scored
    assert await person.open() == UserTurn(text="Something mind-bending")
    # A title that does not ground is no acceptance, whatever it says.
    assert await person.reply(UNGROUNDED) == UserTurn(text="no", accepted=False)
    assert await person.reply(MATRIX) == UserTurn(text="yes!", accepted=True)
    assert shown == [None, UNGROUNDED, MATRIX]


async def test_unscored_person_never_accepts() -> None:
    read, _ = lines("that's it, thanks")
    person = PersonSimulator(read)
    assert not person.scored and not person.accepts(MATRIX)
    assert (await person.reply(MATRIX)).accepted is False


@pytest.mark.parametrize("command", ["/quit", "  /QUIT ", "/exit", "/q"])
async def test_quit_commands_end_the_session(command: str) -> None:
    read, _ = lines(command)
    with pytest.raises(PersonQuit):
        await PersonSimulator(read).open()


async def test_empty_lines_are_asked_again() -> None:
    read, shown = lines("", "   ", "hello")
    assert (await PersonSimulator(read).reply(MATRIX)).text == "hello"
    assert shown == [MATRIX, MATRIX, MATRIX]


async def test_the_person_speaks_through_a_user_proxy_agent() -> None:
    prompts: list[str] = []
    answers = iter(["a heist film", "/quit"])

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    proxy = UserProxyAgent("person", input_func=terminal_input("you> ", read_line=typed))
    person = PersonSimulator(proxy_reader(proxy))
    assert await person.open() == UserTurn(text="a heist film")
    with pytest.raises(PersonQuit):
        await person.reply(MATRIX)
    assert prompts == ["you> ", "you> "]


async def test_end_of_input_reads_as_quit(capsys: pytest.CaptureFixture[str]) -> None:
    def closed(prompt: str) -> str:
        raise EOFError

    read = terminal_input(read_line=closed)
    assert await read("ignored", CancellationToken()) == "/quit"
    assert capsys.readouterr().out == "\n"


async def test_ctrl_c_at_the_prompt_is_not_swallowed() -> None:
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    proxy = UserProxyAgent("person", input_func=terminal_input(read_line=interrupted))
    # UserProxyAgent wraps Exceptions in RuntimeError; Ctrl-C must reach the session as is.
    with pytest.raises(KeyboardInterrupt):
        await PersonSimulator(proxy_reader(proxy)).open()
