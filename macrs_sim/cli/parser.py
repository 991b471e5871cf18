"""The command line's parser class: one-line usage errors, and groups filled on first use."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, NoReturn


class CliParser(argparse.ArgumentParser):
    """A usage mistake is one line (argparse would print the whole usage first).

    `fill`, if given, adds the parser's arguments the first time it parses or prints its
    help: a group whose commands come from the registries (the `eval` group) costs nothing
    when another command runs, nor when the parser is built."""

    def __init__(
        self, *args: Any, fill: Callable[[CliParser], None] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self._fill = fill

    def filled(self) -> CliParser:
        """This parser with its arguments all added."""
        fill, self._fill = self._fill, None
        if fill is not None:
            fill(self)
        return self

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        return super(CliParser, self.filled()).parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        return super(CliParser, self.filled()).format_usage()

    def format_help(self) -> str:
        return super(CliParser, self.filled()).format_help()

    def error(self, message: str) -> NoReturn:
        print(f"error: {self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)
