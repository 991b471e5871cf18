"""A server child process: its output echoed (last lines kept), signals forwarded, and
never left behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections import deque
from types import FrameType
from typing import IO

TAIL_LINES = 200


def echo(stream: IO[bytes], tail: deque[str]) -> None:
    """Copy the child's output to our stderr as it comes, keeping its last lines."""
    for raw in iter(stream.readline, b""):
        line = raw.decode(errors="replace")
        tail.append(line)
        sys.stderr.write(line)
        sys.stderr.flush()


class Forwarder:
    """Passes SIGINT/SIGTERM on to the server; a second one kills it."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.received = 0
        self._old = {s: signal.signal(s, self._handle) for s in (signal.SIGINT, signal.SIGTERM)}

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.received += 1
        # To the server's whole process group (its engine workers too), as a terminal would.
        if self.proc is not None:
            signal_group(self.proc, signum if self.received == 1 else signal.SIGKILL)

    def restore(self) -> None:
        for signum, old in self._old.items():
            signal.signal(signum, old)


def signal_group(proc: subprocess.Popen[bytes], signum: int) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signum)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Never leave the server (and its GPU memory) behind, whatever ended the launcher."""
    signal_group(proc, signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        signal_group(proc, signal.SIGKILL)
        proc.wait()


def interpreter_of(script: str) -> str:
    """The Python a console script runs with (its #! line), else this one."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        with open(script, encoding="utf-8") as f:
            first = f.readline()
        parts = first[2:].split() if first.startswith("#!") else []
        if parts and os.path.basename(parts[0]) == "env" and len(parts) > 1:
            found = shutil.which(parts[1])
            if found:
                return found
        elif parts and os.access(parts[0], os.X_OK):
            return parts[0]
    return sys.executable
