"""`chat` with bytes that are not UTF-8, and sessions that save nothing: no traceback,
the person asked again, no response cache left behind that the session made."""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from macrs_sim.data.catalog import Catalog
from macrs_sim.interactive.chat import ChatOptions, chat
from macrs_sim.interactive.person import NOT_UTF8, is_utf8, terminal_input
from macrs_sim.interactive.render import ChatView
from macrs_sim.llm.scripted import ScriptedRequest
from tests.interactive.chat_fixtures import rules_recommending, scripted_scenario
from tests.interactive.test_chat import person
from tests.interactive.test_terminal import env, only_result, scenario_file, wait_exit


def lines(*answers: str | Exception) -> Callable[[str], str]:
    pending = list(answers)

    def read_line(prompt: str) -> str:
        answer = pending.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return read_line


async def test_lines_not_utf8_are_asked_again(capsys: pytest.CaptureFixture[str]) -> None:
    bad = UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    # A strict stdin raises; a surrogateescape one (C.UTF-8) hands over lone surrogates.
    read = terminal_input(read_line=lines(bad, "caf\udce9 \udcff", "café"))
    assert await read("", None) == "café"
    assert capsys.readouterr().out == f"{NOT_UTF8}\n{NOT_UTF8}\n"


@pytest.mark.parametrize(
    ("text", "expected"), [("café ✓", True), ("\udcff", False), ("a\ud800b", False), ("", True)]
)
def test_is_utf8(text: str, expected: bool) -> None:
    assert is_utf8(text) is expected


@pytest.mark.parametrize("io_encoding", ["", "utf-8:strict"])
def test_raw_bytes_typed_in_a_terminal(tmp_path: Path, io_encoding: str) -> None:
    """The default C.UTF-8 stdin keeps the bytes as surrogates; a strict one raises."""
    extra = {"PYTHONIOENCODING": io_encoding} if io_encoding else {}
    screen = io.StringIO()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "macrs_sim.cli", "chat", str(scenario_file(tmp_path))],
        env=env() | extra,
        cwd=str(tmp_path),
        encoding="utf-8",
        codec_errors="replace",  # the terminal echoes the raw bytes back
        timeout=90,
        dimensions=(50, 100),
    )
    child.logfile_read = screen
    child.expect("you> ")
    child.sendline("hello")
    child.expect("you> ")
    os.write(child.child_fd, b"caf\xe9 \xff\xfe\x1b]0;x\x07\r")
    child.expect(NOT_UTF8)
    child.expect("you> ")
    child.sendline("more")
    child.expect("you> ")
    child.sendline("/quit")
    wait_exit(child, screen)  # exit 0, no traceback
    result, _ = only_result(tmp_path)
    assert [(e.turn, e.system.act, e.user.text) for e in result.exchanges] == [
        (1, "ask", "more"),
        (2, "recommend", ""),
    ]


async def _chat(
    tmp_path: Path, catalog: Catalog, *texts: str, planner_fails: bool = False
) -> Path | None:
    scenario = scripted_scenario(tmp_path, catalog, max_structured_retries=0)
    view = ChatView(Console(file=io.StringIO(), color_system=None))
    rules = rules_recommending(catalog, "Up")
    if planner_fails:

        def broken(req: ScriptedRequest) -> object:
            raise RuntimeError("planner fell over")

        rules["macrs.planner"] = broken  # type: ignore[assignment]
    options = ChatOptions(session_id="person-1")
    outcome = await chat(scenario, options, person(*texts), view, scripted_rules=rules)
    return outcome.run_dir


async def test_a_session_that_saves_nothing_leaves_no_cache(
    tmp_path: Path, catalog: Catalog
) -> None:
    # The planner is called (the cache is made) and fails before the system ever speaks.
    assert await _chat(tmp_path, catalog, "hi", planner_fails=True) is None
    assert not (tmp_path / "runs").exists()


async def test_a_failed_save_leaves_no_cache(
    tmp_path: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(*args: object, **kwargs: object) -> Path:
        raise OSError("No space left on device")

    monkeypatch.setattr(sys.modules["macrs_sim.interactive.chat"], "save_session", full_disk)
    with pytest.raises(OSError, match="No space left"):
        await _chat(tmp_path, catalog, "hi", "/quit")
    assert not (tmp_path / "runs").exists()


async def test_a_cache_from_before_is_kept(tmp_path: Path, catalog: Catalog) -> None:
    saved = await _chat(tmp_path, catalog, "hi", "/quit")
    assert saved is not None
    cache = tmp_path / "runs" / "llm_cache.sqlite"
    assert cache.is_file()
    assert await _chat(tmp_path, catalog, "hi", planner_fails=True) is None
    assert cache.is_file() and saved.is_dir()
