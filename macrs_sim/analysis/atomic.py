"""Report files written whole or not at all: a temporary file in the same folder, then rename.

A report killed halfway (Ctrl-C, SIGKILL, a full disk) must not leave a half-written
report.md, CSV or PNG that looks finished: each writer here fills `.<name>.<random>.tmp`
next to the target and `os.replace`s it over the target (atomic within one filesystem),
removing the temporary file if writing fails.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pandas as pd
from matplotlib.figure import Figure

FIGURE_DPI = 120


def _new_temporary(path: Path) -> tuple[int, Path]:
    """An open, new, empty file beside `path`, mode 0666 less the umask like any file the
    user makes (`tempfile.mkstemp` would make it 0600, and the rename would keep that)."""
    for _ in range(100):
        tmp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
        with contextlib.suppress(FileExistsError):
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
    raise FileExistsError(f"no free temporary name beside {path}")


def _write_atomic(path: Path, fill: Callable[[IO[bytes]], object]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _new_temporary(path)
    try:
        with os.fdopen(fd, "wb") as handle:
            fill(handle)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write `text` as UTF-8 to `path` atomically; return the path."""
    return _write_atomic(Path(path), lambda h: h.write(text.encode("utf-8")))


def write_csv_atomic(frame: pd.DataFrame, path: str | Path) -> Path:
    """`frame.to_csv(path, index=False)`, atomically; return the path."""
    return write_text_atomic(path, frame.to_csv(index=False))


def save_png_atomic(fig: Figure, path: str | Path, dpi: int = FIGURE_DPI) -> Path:
    """Save `fig` as a PNG at `path` atomically, then free its artists; return the path.

    The path must end in `.png`: a figure saved under any other name (`3`, `fig.pdf`)
    would be a PNG under a misleading name, so it is refused with a ValueError.
    """
    path = Path(path)
    if path.suffix.lower() != ".png":
        raise ValueError(f"{path}: a figure path must end in .png (figures are saved as PNG)")
    _write_atomic(path, lambda h: fig.savefig(h, dpi=dpi, bbox_inches="tight", format="png"))
    fig.clear()  # no pyplot: nothing is registered to close; this frees the artists
    return path
