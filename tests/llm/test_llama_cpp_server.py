"""A real OpenAI-compatible server: llama-cpp-python's own (`python -m llama_cpp.server`,
the `embedded` extra), serving the embedded model's GGUF on 127.0.0.1. It refuses
`response_format: json_schema` with HTTP 500; `auto` must find `json_object` and the
campaign must finish."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.llm.gguf import default_gguf_path
from macrs_sim.llm.probe import known_mode
from macrs_sim.store import RunStore

pytestmark = [
    pytest.mark.embedded,
    pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning"),
]
MODEL = "qwen-0.5b"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_serving(url: str, proc: subprocess.Popen[bytes], timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"llama_cpp.server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=2) as resp:
                if json.load(resp)["data"]:
                    return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"llama_cpp.server not serving after {timeout_s} s")


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(default_gguf_path())]
    argv += ["--model_alias", MODEL, "--host", "127.0.0.1", "--port", str(port)]
    # Its default is half the cores; the in-process backend takes them all, so does this.
    argv += ["--n_ctx", "4096", "--seed", "0", "--n_threads", str(os.cpu_count() or 1)]
    with log.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_serving(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def test_a_campaign_through_llama_cpp_python_server(
    llama_server: str, tmp_path: Path
) -> None:
    sc = parse_scenario(
        {
            "name": "llama-server",
            "model": {
                "backend": "openai",
                "model": MODEL,
                "base_url": llama_server,  # structured_outputs: "auto" by default
                "max_tokens": 64,
                "max_concurrency": 1,  # the server answers one request at a time
                "timeout_s": 300,
            },
            "data": {"n_samples": 1},
            # Short on purpose: two model calls (one turn, a final list of 3) after the probe.
            "protocol": {"max_turns": 1, "final_list_k": 3},
            "simulator": {"kind": "agenda"},
            "campaign": {"output_dir": str(tmp_path / "runs"), "concurrency": 1},
            "cache": {"enabled": False},
            "systems": [{"name": "LLM", "kind": "single_llm"}],
        }
    )
    assert sc.model.structured_outputs == "auto"  # type: ignore[union-attr]
    result = await run_campaign_async(sc, progress=False, report=False)
    assert known_mode(llama_server, MODEL) == "json_object"
    assert (result.stored, result.expected, result.status) == (1, 1, "finished")
    with RunStore.open(result.store_path) as store:
        (dialogue,) = store.read_results()
        calls = store.read_calls()
    assert dialogue.error is None and dialogue.status in ("success", "failure")
    assert len(calls) >= 2 and all(c.ok for c in calls), [c.error for c in calls if not c.ok]
