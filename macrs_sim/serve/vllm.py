"""`macrs-sim serve vllm`: start `vllm serve` with the settings a campaign relies on.

Waits until the server answers, prints the `[model]` snippet for a scenario, then
serves in the foreground; Ctrl-C or SIGTERM is passed on to vllm, which is waited for.
vllm's own output goes to stderr as it comes, so its load progress and any
error are visible; the snippet alone goes to stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass
from types import FrameType
from typing import IO

from macrs_sim.errors import ConfigError, ModelUnavailableError

MISSING_VLLM = "vllm is not installed: pip install 'macrs-sim[vllm]' on a machine with a GPU"
WILDCARD_HOSTS = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class VllmServer:
    model: str
    host: str = "127.0.0.1"
    port: int = 8000
    max_num_seqs: int = 256
    gpu_memory_utilization: float = 0.9
    max_model_len: int | None = None
    # The *name* of the variable holding the key: vllm gets it as VLLM_API_KEY, never in argv.
    api_key_env: str | None = None
    executable: str = "vllm"
    timeout_s: float = 900.0
    extra: tuple[str, ...] = ()

    def argv(self, executable: str) -> list[str]:
        args = [executable, "serve", self.model, "--host", self.host, "--port", str(self.port)]
        # "vllm": the model's generation_config.json must not change sampling defaults.
        args += ["--generation-config", "vllm", "--enable-prefix-caching", "--seed", "0"]
        args += ["--max-num-seqs", str(self.max_num_seqs), "--served-model-name", self.model]
        args += ["--gpu-memory-utilization", str(self.gpu_memory_utilization)]
        if self.max_model_len is not None:
            args += ["--max-model-len", str(self.max_model_len)]
        return args + list(self.extra)  # last, so they may override ours

    def url(self, *, for_others: bool) -> str:
        """Polled locally; the snippet names a wildcard host by this machine's name."""
        host = self.host
        if host in WILDCARD_HOSTS:
            host = socket.gethostname() if for_others else "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}"

    def snippet(self) -> str:
        lines = [
            "[model]",
            'backend = "openai"',
            f"model = {json.dumps(self.model)}",
            f"base_url = {json.dumps(self.url(for_others=True) + '/v1')}",
            'structured_outputs = "vllm"',
            f"max_concurrency = {self.max_num_seqs}",
        ]
        if self.api_key_env:
            lines.append(f"api_key_env = {json.dumps(self.api_key_env)}")
        return "\n".join(lines)


def serve(server: VllmServer) -> int:
    executable = shutil.which(server.executable)
    if executable is None:
        if server.executable != "vllm":
            raise ModelUnavailableError(f"--executable {server.executable}: no such program")
        raise ModelUnavailableError(MISSING_VLLM)
    env = dict(os.environ)
    key = None
    if server.api_key_env:
        key = env.get(server.api_key_env)
        if not key:
            raise ConfigError(
                f"--api-key-env: environment variable {server.api_key_env} is not set"
            )
        env["VLLM_API_KEY"] = key
    signals = _Forwarder()  # first: a Ctrl-C from here on must not leave vllm running
    try:
        try:  # own session: a terminal's Ctrl-C reaches vllm once, forwarded by us, not twice
            proc = signals.proc = subprocess.Popen(
                server.argv(executable),
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        except OSError as err:  # e.g. not executable
            raise ModelUnavailableError(f"cannot start {executable}: {err}") from None
        code = _supervise(server, proc, key, signals)
    finally:
        signals.restore()
    if code != 0 and not signals.received:
        raise ModelUnavailableError(f"vllm exited with code {code} (its output is above)")
    return 0


def _supervise(
    server: VllmServer, proc: subprocess.Popen[bytes], key: str | None, signals: _Forwarder
) -> int:
    """Echo vllm's output, print the snippet once it is ready, and wait for it to end."""
    assert proc.stdout is not None
    echo = threading.Thread(target=_echo, args=(proc.stdout,), daemon=True)
    echo.start()
    try:
        if _wait_ready(server, proc, key, signals):
            print(server.snippet(), flush=True)
            print(f"serving {server.model}; Ctrl-C stops vllm", file=sys.stderr, flush=True)
        return proc.wait()
    finally:
        _stop(proc)
        echo.join(timeout=5)


def _wait_ready(
    server: VllmServer, proc: subprocess.Popen[bytes], key: str | None, signals: _Forwarder
) -> bool:
    """True once /health answers and /v1/models lists the model; False when we were stopped."""
    deadline = time.monotonic() + server.timeout_s
    base = server.url(for_others=False)
    while not signals.received:
        code = proc.poll()
        if code is not None:
            raise ModelUnavailableError(
                f"vllm exited with code {code} before it was ready (its output is above)"
            )
        if _answers(base, server.model, key):
            return True
        if time.monotonic() > deadline:
            raise ModelUnavailableError(
                f"vllm was not ready after {server.timeout_s:.0f} s (--timeout); stopped it"
            )
        time.sleep(0.5)
    return False


def _answers(base: str, model: str, key: str | None) -> bool:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        with urllib.request.urlopen(f"{base}/health", timeout=5) as resp:
            if resp.status != 200:
                return False
        request = urllib.request.Request(f"{base}/v1/models", headers=headers)
        with urllib.request.urlopen(request, timeout=5) as resp:
            listed = json.load(resp).get("data", [])
    except (OSError, ValueError):  # not listening yet, or still loading
        return False
    return any(m.get("id") == model for m in listed if isinstance(m, dict))


def _echo(stream: IO[bytes]) -> None:
    for line in iter(stream.readline, b""):
        sys.stderr.write(line.decode(errors="replace"))
        sys.stderr.flush()


class _Forwarder:
    """Passes SIGINT/SIGTERM on to vllm; a second one kills it."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.received = 0
        self._old = {s: signal.signal(s, self._handle) for s in (signal.SIGINT, signal.SIGTERM)}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.received += 1
        # To vllm's whole process group (its engine workers too), as a terminal would.
        if self.proc is not None:
            _signal_group(self.proc, signum if self.received == 1 else signal.SIGKILL)

    def restore(self) -> None:
        for signum, old in self._old.items():
            signal.signal(signum, old)


def _signal_group(proc: subprocess.Popen[bytes], signum: int) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signum)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Never leave vllm (and its GPU memory) behind, whatever ended the launcher."""
    _signal_group(proc, signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        _signal_group(proc, signal.SIGKILL)
        proc.wait()
