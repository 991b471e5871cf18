"""`macrs-sim`: thin commands over the Python API. Errors end in one line, no traceback."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from macrs_sim.cli.analysis import add_analysis_commands
from macrs_sim.cli.chat import add_chat_command
from macrs_sim.cli.data import add_data_commands
from macrs_sim.cli.models import add_model_commands
from macrs_sim.cli.parser import CliParser
from macrs_sim.cli.realism import add_realism_command
from macrs_sim.cli.run import add_run_command
from macrs_sim.cli.serve import add_serve_commands
from macrs_sim.cli.view import add_view_command
from macrs_sim.errors import MacrsSimError
from macrs_sim.textsafe import terminal_line


def build_parser() -> argparse.ArgumentParser:
    """Every command; only light modules are imported (handlers import the rest)."""
    parser = CliParser(prog="macrs-sim", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    add_run_command(sub)
    add_analysis_commands(sub)
    add_realism_command(sub)
    add_model_commands(sub)
    add_data_commands(sub)
    add_serve_commands(sub)
    add_view_command(sub)
    add_chat_command(sub)
    return parser


def describe_os_error(err: OSError) -> str:
    """One line: the path, what the system said, and what to look at."""
    where = " -> ".join(str(f) for f in (err.filename, err.filename2) if f is not None)
    what = " ".join((err.strerror or str(err) or type(err).__name__).split())
    if isinstance(err, NotADirectoryError | FileExistsError):
        hint = "part of this path is a file where a folder is needed"
    else:
        hint = "a file or folder could not be read, made or written"
    return f"{where}: {what} ({hint})" if where else f"{what} ({hint})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        # inside: parsing `eval` loads the registered systems, whose import may fail
        args = parser.parse_args(argv)
        func: Callable[[argparse.Namespace], int] = args.func
        return func(args)
    except MacrsSimError as err:
        # Plain print: one unwrapped line whatever the terminal width. A server's or a model's
        # words in it are data: no control code reaches the terminal (macrs_sim/textsafe.py).
        print(f"error: {terminal_line(str(err))}", file=sys.stderr)
        return 2
    except OSError as err:  # a folder that cannot be made or written, a full disk, /proc
        print(f"error: {terminal_line(describe_os_error(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
