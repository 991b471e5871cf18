"""`macrs-sim chat` in a real terminal (a pty driven by pexpect), on the scripted backend.

The catalog holds one film, so every scripted recommendation is the target: MACRS asks on
turn 1 and recommends (the target) on turn 2, whatever the session's id.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from macrs_sim.protocol import DialogueResult, Item
from macrs_sim.store import RunStore

pytestmark = pytest.mark.soak  # drives the real terminal (pty) through whole sessions: slow tier

REPO = Path(__file__).resolve().parents[2]
UP = Item(item_id="m3", title="Up", year=2009, genres=("Animation", "Family", "Comedy"))


def scenario_file(tmp_path: Path, latency_s: float = 0.0) -> Path:
    catalog = tmp_path / "up.jsonl"
    catalog.write_text(UP.model_dump_json() + "\n", encoding="utf-8")
    path = tmp_path / "chat.toml"
    path.write_text(
        f'name = "term"\n[model]\nbackend = "scripted"\nlatency_s = {latency_s}\n'
        f"[data]\ncatalog = {json.dumps(str(catalog))}\n[protocol]\nmax_turns = 3\n"
        f"[campaign]\noutput_dir = {json.dumps(str(tmp_path / 'runs'))}\n"
        '[[systems]]\nname = "MACRS"\nkind = "macrs"\n',
        encoding="utf-8",
    )
    return path


def env() -> dict[str, str]:
    # TERM=dumb: rich prints no escape codes, so the screen reads as plain text.
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "TERM": "dumb"}


def spawn_chat(tmp_path: Path, *args: str) -> tuple[pexpect.spawn, io.StringIO]:
    screen = io.StringIO()
    child = pexpect.spawn(
        sys.executable,
        ["-m", "macrs_sim.cli", "chat", *args],
        env=env(),
        cwd=str(tmp_path),  # `python -m` puts the cwd first on sys.path: not a checkout
        encoding="utf-8",
        timeout=90,
        dimensions=(50, 100),
    )
    child.logfile_read = screen
    return child, screen


def wait_exit(child: pexpect.spawn, screen: io.StringIO) -> str:
    try:
        child.expect(pexpect.EOF)
    except pexpect.TIMEOUT:
        child.kill(9)
        raise AssertionError(f"no exit; the screen:\n{screen.getvalue()}") from None
    child.close()
    text = screen.getvalue().replace("\r\n", "\n")
    assert "Traceback" not in text
    assert child.exitstatus == 0, text
    return text


def only_result(tmp_path: Path) -> tuple[DialogueResult, dict[str, str]]:
    (run_dir,) = (tmp_path / "runs").glob("term-chat-*")
    with RunStore.open(run_dir / "store.sqlite") as store:
        (result,) = store.read_results()
        return result, store.all_meta()


def test_a_scored_session_with_explain(tmp_path: Path) -> None:
    child, screen = spawn_chat(
        tmp_path, str(scenario_file(tmp_path)), "--explain", "--target", "up"
    )
    child.expect("you> ")
    child.sendline("Something animated and warm.")
    child.expect("you> ")
    child.sendline("A house that flies, maybe.")
    child.expect("That is your target")
    child.expect("you> ")
    child.sendline("Yes! That's the one.")
    text = wait_exit(child, screen)
    assert "Scored session: your target is Up (2009) (id m3); at most 3 turns." in text
    assert "MACRS · turn 1/3 · ask\n  What kind of movie are you in the mood for?\n" in text
    assert "→ │ recommend │ You might enjoy Up (2009)." in text
    assert "choice: recommend" in text and "profile  mood = light-hearted" in text
    assert "  ↳ Up (2009)  = m3 (exact)  ← your target\n" in text
    assert "success: the system recommended your target\nsaved: " in text
    result, meta = only_result(tmp_path)
    assert (result.status, result.success_turn, result.system) == ("success", 2, "MACRS")
    assert [e.user.text for e in result.exchanges] == [
        "A house that flies, maybe.",
        "Yes! That's the one.",
    ]
    assert meta["user"] == "person"


def test_quit_ends_an_unscored_session(tmp_path: Path) -> None:
    child, screen = spawn_chat(tmp_path, str(scenario_file(tmp_path)))
    child.expect("you> ")
    child.sendline("hello")
    child.expect("you> ")
    child.sendline("/quit")
    text = wait_exit(child, screen)
    assert "Unscored session: talk as long as you like." in text
    assert "you> /quit\nsession ended\nsaved: " in text
    result, meta = only_result(tmp_path)
    assert json.loads(meta["chat"]) == {"scored": False, "ended_by": "quit"}
    assert [(e.system.act, e.user.text) for e in result.exchanges] == [("ask", "")]


def test_ctrl_d_at_the_opening_saves_nothing(tmp_path: Path) -> None:
    child, screen = spawn_chat(tmp_path, str(scenario_file(tmp_path)))
    child.expect("you> ")
    child.sendeof()
    text = wait_exit(child, screen)
    assert text.endswith("you> \nsession ended\nnothing to save: the system never answered\n")
    assert not (tmp_path / "runs").exists() or not list((tmp_path / "runs").glob("term-chat-*"))


def test_ctrl_c_at_the_prompt(tmp_path: Path) -> None:
    child, screen = spawn_chat(tmp_path, str(scenario_file(tmp_path)))
    child.expect("you> ")
    child.sendline("hello")
    child.expect("you> ")
    # The prompt is written just before the read starts; a SIGINT in between is seen only
    # at the next Enter (Python's own prompt has the same window). No person is that fast.
    time.sleep(0.3)
    child.sendintr()
    text = wait_exit(child, screen)
    assert "\nsession interrupted\nsaved: " in text
    result, meta = only_result(tmp_path)
    assert json.loads(meta["chat"])["ended_by"] == "interrupted"


def test_ctrl_c_while_the_model_works(tmp_path: Path) -> None:
    child, screen = spawn_chat(tmp_path, str(scenario_file(tmp_path, latency_s=2.0)))
    child.expect("you> ")
    child.sendline("hello")
    child.expect("you> ")
    child.sendline("more")
    child.expect("MACRS is thinking")
    time.sleep(0.5)  # inside a 2 s model call
    started = time.monotonic()
    child.sendintr()
    text = wait_exit(child, screen)
    assert time.monotonic() - started < 30
    assert "\nsession interrupted\nsaved: " in text
    result, _ = only_result(tmp_path)
    # Turn 1 was answered; turn 2 never came.
    assert [(e.turn, e.user.text) for e in result.exchanges] == [(1, "more")]


def test_a_target_not_in_the_catalog_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "macrs_sim.cli", "chat", str(scenario_file(tmp_path))]
        + ["--target", "Zzyzx Road"],
        env=env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=90,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: --target 'Zzyzx Road': no item of dataset 'demo:")
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "runs").exists()
