"""`macrs-sim eval <kind>` comes from the system's spec (issue 29): the `eval` group walks
the registered kinds and calls each one's `eval_command`, so a system with its own protocol
needs no edit outside its folders; the group is filled only when `eval` is parsed."""

from __future__ import annotations

import argparse
from typing import Any, Literal

import pytest

from macrs_sim.agents import registry
from macrs_sim.agents.registry import SystemOptions, SystemSpec, known_kinds
from macrs_sim.cli import build_parser, main


class EchoOptions(SystemOptions):
    kind: Literal["echo"] = "echo"


def _echo(args: argparse.Namespace) -> int:
    print(f"echo protocol: {args.n} users, seed {args.seed}")
    return 0


def add_echo_eval(ev: argparse._SubParsersAction[Any]) -> None:
    p = ev.add_parser("echo", help="Echo's own protocol")
    p.add_argument("n", type=int)
    p.add_argument("--seed", type=int, default=7)
    p.set_defaults(func=_echo)


def echo_spec(eval_command: str | None) -> SystemSpec:
    return SystemSpec(kind="echo", options=EchoOptions, build="x:y", eval_command=eval_command)


@pytest.fixture
def echo(monkeypatch: pytest.MonkeyPatch) -> Any:
    known_kinds()  # the built-in kinds first, as a campaign would load them

    def register(eval_command: str | None) -> None:
        monkeypatch.setitem(registry._SPECS, "echo", echo_spec(eval_command))

    return register


def eval_choices() -> list[str]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    ev = sub.choices["eval"].format_help()  # fills the group
    del ev
    (group,) = [
        a for a in sub.choices["eval"]._actions if isinstance(a, argparse._SubParsersAction)
    ]
    return list(group.choices)


def test_the_builtin_systems_bring_their_own_eval_commands() -> None:
    # sequential (rankers) is the command line's own; the rest in registration order.
    assert eval_choices() == ["sequential", "interecagent", "recmind", "toolrec"]
    kinds = [s.kind for s in registry.registered_specs() if s.eval_command is not None]
    assert kinds == ["interecagent", "recmind", "toolrec"]


def test_a_registered_system_gets_its_eval_command(
    echo: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    echo("tests.test_cli_eval_registry:add_echo_eval")
    assert eval_choices()[-1] == "echo"
    assert main(["eval", "echo", "12"]) == 0
    assert capsys.readouterr().out == "echo protocol: 12 users, seed 7\n"


def test_a_system_without_a_protocol_adds_no_command(echo: Any) -> None:
    echo(None)
    assert "echo" not in eval_choices()


def test_an_eval_command_that_cannot_be_imported_is_one_line(
    echo: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    echo("tests.no_such_module:add_eval")
    assert main(["eval", "sequential", "demo"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: system kind 'echo' cannot be loaded (No module named 'tests.no_such_module')\n"
    )


def test_an_unknown_eval_command_is_one_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["eval", "nope"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: macrs-sim eval: argument eval_cmd: invalid choice: 'nope'")
    assert "'sequential', 'interecagent', 'recmind', 'toolrec'" in err


def test_eval_help_lists_each_protocol(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps at the terminal's width
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    out = capsys.readouterr().out
    assert "usage: macrs-sim eval [-h] {sequential,interecagent,recmind,toolrec} ..." in out
    assert "    recmind             RecMind's tasks: rating, direct, sequential, explanation" in out
