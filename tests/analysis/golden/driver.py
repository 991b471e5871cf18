"""Runs the golden commands: `python -m tests.analysis.golden.driver WORK OUT_JSON`.

outputs.generate starts it as a fresh interpreter with a shell's environment for `macrs-sim`
(COLUMNS=100, no colour switches). It imports the CLI and the modules its commands load
(a speed-up only: a module that no longer exists is skipped), then runs each command of
outputs.COMMANDS in a forked child, as `macrs-sim ARGV` run in WORK would run: a process of
its own, stdout and stderr to files, nothing left over from the command before. Between
commands it notes which files each one added or changed, and writes every command's Output
to OUT_JSON.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import sys
import traceback
from pathlib import Path

from tests.analysis.golden.outputs import COMMANDS, outputs_of, snapshot, to_json

PRELOAD = (
    "macrs_sim.cli",
    "macrs_sim.analysis.report.full",
    "macrs_sim.analysis.report.summary",
    "macrs_sim.analysis.report.alike",
    "macrs_sim.analysis.runs.load",
    "macrs_sim.viewer.site",
    "macrs_sim.viewer.serve",
    "macrs_sim.store",
)


def _child(argv: tuple[str, ...], work: Path, out: Path, err: Path) -> None:
    """In the forked child: `macrs-sim ARGV` in WORK; never returns."""
    code = 1
    try:
        os.chdir(work)
        with out.open("wb") as o, err.open("wb") as e:
            os.dup2(o.fileno(), 1)
            os.dup2(e.fileno(), 2)
        from macrs_sim.cli import main

        code = main(list(argv))
    except SystemExit as exc:  # argparse's refusals, as the console script exits
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def run_forked(argv: tuple[str, ...], work: Path, streams: Path) -> tuple[int, tuple[str, str]]:
    out, err = streams / "stdout", streams / "stderr"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(argv, work, out, err)
    _, status = os.waitpid(pid, 0)
    texts = out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")
    return os.waitstatus_to_exitcode(status), texts


def main(work: Path, result: Path) -> None:
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    streams = result.parent / "streams"
    streams.mkdir(exist_ok=True)
    outputs = {}
    for key, argv in COMMANDS:
        before = snapshot(work)
        rc, texts = run_forked(argv, work, streams)
        changed = sorted(rel for rel, h in snapshot(work).items() if before.get(rel) != h)
        outputs[key] = outputs_of(key, rc, texts, changed, work)
    result.write_text(json.dumps(to_json(outputs)), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve())
