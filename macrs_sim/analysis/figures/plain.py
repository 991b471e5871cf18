"""Figure text is plain text: names come from runs (systems, acts a server chose), and
matplotlib would read `$...$` in them as math, failing the report on a name like `$\\frac{$`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec

import matplotlib
from matplotlib.figure import Figure

P = ParamSpec("P")


def plain_text(build: Callable[P, Figure]) -> Callable[P, Figure]:
    """`build` with every text it creates taken literally (text.parse_math off)."""

    @functools.wraps(build)
    def built(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with matplotlib.rc_context({"text.parse_math": False}):
            return build(*args, **kwargs)

    return built
