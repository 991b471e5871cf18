"""llama-cpp-python's own OpenAI-compatible server (`python -m llama_cpp.server`, the
`embedded` extra) serving the embedded model's GGUF on 127.0.0.1: one per test run, started by
the first test that asks for the `llama_server` fixture (tests/conftest.py) and shared by the
rest (under xdist the tests that ask for it share one worker, so one server)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from macrs_sim.llm.gguf import default_gguf_path
from tests.cores import worker_cores

# The name the server gives the model; requests must say it.
LLAMA_ALIAS = "qwen2.5-coder-0.5b"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_serving(
    url: str, proc: subprocess.Popen[bytes], log: Path, timeout_s: float
) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-2000:]
            raise AssertionError(f"llama_cpp.server exited with code {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2) as resp:
                if json.load(resp)["data"]:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"llama_cpp.server not serving after {timeout_s} s")


@contextmanager
def llama_cpp_server(log: Path, timeout_s: float = 180) -> Iterator[str]:
    """The server on a free port of 127.0.0.1 until the block ends; its base URL."""
    port = free_port()
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(default_gguf_path())]
    argv += ["--model_alias", LLAMA_ALIAS, "--host", "127.0.0.1", "--port", str(port)]
    # The in-process backend's settings: the same context, seed and threads (the server's
    # default is half the cores; here, the test worker's share: tests/cores.py).
    threads = str(worker_cores())
    argv += ["--n_ctx", "4096", "--seed", "0", "--n_threads", threads, "--n_threads_batch", threads]
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        _wait_until_serving(url, proc, log, timeout_s)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
