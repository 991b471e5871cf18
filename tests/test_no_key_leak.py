"""No API key in anything a run leaves behind: store, report, tables, samples, console.

A real campaign through the CLI, over HTTP to the fake OpenAI server, with a forced 401
whose message echoes the key (as careless servers do) and 500s that get retried.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from macrs_sim.llm.fake_openai_server import FakeOpenAIServer

KEY = "sk-macrs-leak-canary-7Hq2Zx9PvK4mW1"
SCENARIO = """
name = "leak"
[model]
backend = "openai"
model = "fake-model"
base_url = "{url}"
api_key_env = "MACRS_LEAK_TEST_KEY"
max_retries = 2
backoff_base_s = 0.01
backoff_max_s = 0.02
[data]
n_samples = 2
[protocol]
max_turns = 2
[campaign]
concurrency = 2
[cache]
enabled = false
[[systems]]
name = "MACRS"
kind = "macrs"
"""


def test_the_key_never_lands_in_a_run(tmp_path: Path) -> None:
    with FakeOpenAIServer() as srv:
        # Set-up makes 2 calls (target profiles) and 2 openings: spare those, so the
        # campaign runs and the 401 costs one dialogue.
        srv.fail(401, at=6)
        srv.fail(500, times=2, at=9)
        scenario = tmp_path / "leak.toml"
        scenario.write_text(SCENARIO.format(url=srv.base_url), encoding="utf-8")
        out = tmp_path / "runs"
        env = {**os.environ, "MACRS_LEAK_TEST_KEY": KEY}
        proc = subprocess.run(
            [sys.executable, "-m", "macrs_sim.cli", "run", str(scenario)]
            + ["--output-dir", str(out), "--no-progress"],
            env=env,
            capture_output=True,
            timeout=300,
        )
        headers = [r.headers.get("authorization") for r in srv.requests]
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    # The key did go out (so its absence below means something) ...
    assert headers and set(headers) == {f"Bearer {KEY}"}
    # ... and the forced errors happened and were stored, scrubbed.
    files = [p for p in out.rglob("*") if p.is_file()]
    names = {p.name for p in files}
    assert {"store.sqlite", "report.md", "scenario.resolved.toml", "samples.jsonl"} <= names
    assert any(p.suffix == ".csv" for p in files)
    assert any(b"[redacted]" in p.read_bytes() for p in files if p.name.startswith("store"))
    leaks = [str(p) for p in files if KEY.encode() in p.read_bytes()]
    assert leaks == []
    assert KEY.encode() not in proc.stdout + proc.stderr
