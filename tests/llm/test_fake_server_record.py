"""The fake server keeps requests only when asked: a benchmark's server must not grow by
every body it is sent."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

import pytest

from macrs_sim.llm.fake_openai_server import FakeOpenAIServer


def _chat(base_url: str) -> dict[str, object]:
    body = json.dumps({"model": "fake", "messages": [{"role": "user", "content": "hi"}]})
    request = urllib.request.Request(
        base_url + "/chat/completions",
        data=body.encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)  # type: ignore[no-any-return]


def test_a_server_that_does_not_record_still_answers_and_counts() -> None:
    with FakeOpenAIServer(record=False) as srv:
        replies = [_chat(srv.base_url) for _ in range(3)]
        assert srv.requests == []
        with pytest.raises(RuntimeError, match="keeps no request bodies"):
            srv.chat_bodies()  # an empty list would read as "nothing was sent"
        assert srv.chat_count == 3
    assert all(r["object"] == "chat.completion" for r in replies)


def test_by_default_every_request_is_kept() -> None:
    with FakeOpenAIServer() as srv:
        _chat(srv.base_url)
        _chat(srv.base_url)
        assert [b["messages"] for b in srv.chat_bodies()] == [
            [{"role": "user", "content": "hi"}]
        ] * 2


def test_the_command_line_server_starts_under_python_m_without_a_warning() -> None:
    cmd = [sys.executable, "-W", "error", "-m", "macrs_sim.llm.fake_openai_server"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        (base_url,) = json.loads(proc.stdout.readline())["base_urls"]
        assert _chat(base_url)["object"] == "chat.completion"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
    assert "Warning" not in err  # runpy's "found in sys.modules" warning among them
