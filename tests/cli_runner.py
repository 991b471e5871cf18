"""`macrs-sim ARGS` run in this process, answered as a subprocess would answer: the exit
status, standard output and standard error as text.

For the tests that are about what a command does, not about the process (its signals, its
imports, its umask, packages only a fresh interpreter sees): a subprocess costs ~2 s a call
to start Python and import the campaign's modules again, and the CLI tests make hundreds of
calls. What a subprocess would differ in is reproduced: the working folder and environment
are the call's own and put back after it; `sys.exit` and argparse's usage errors give their
status; an exception that escapes `main` is printed as the interpreter prints it, with
status 1, so a test asserting "no traceback" still sees one.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from macrs_sim.cli import main

CliResult = subprocess.CompletedProcess[str]


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    """os.environ replaced by `env` (a whole environment, as subprocess's env= is) for the
    block; unchanged when None."""
    if env is None:
        yield
        return
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _exit_status(stop: SystemExit, err: io.StringIO) -> int:
    """What the interpreter makes of `SystemExit(code)`: None is 0, a number is itself, and
    anything else is printed to standard error with status 1."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=err)
    return 1


@contextlib.contextmanager
def _umask(mask: int | None) -> Iterator[None]:
    if mask is None:
        yield
        return
    saved = os.umask(mask)
    try:
        yield
    finally:
        os.umask(saved)


def run_cli(
    *args: str | Path,
    cwd: Path | str,
    env: Mapping[str, str] | None = None,
    umask: int | None = None,
) -> CliResult:
    """`macrs-sim ARGS` in `cwd` (with `env` and `umask`, if given), in this process."""
    argv: Sequence[str] = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.chdir(cwd),
        _environment(env),
        _umask(umask),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = _exit_status(stop, err)
        except Exception:  # what an uncaught exception does to a process
            traceback.print_exc(file=err)
            code = 1
        finally:
            sys.stdout.flush()
    return subprocess.CompletedProcess(["macrs-sim", *argv], code, out.getvalue(), err.getvalue())
