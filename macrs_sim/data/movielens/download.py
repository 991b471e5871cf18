"""Fetch an official MovieLens release zip from GroupLens."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

from macrs_sim.errors import DataError

_BASE = "https://files.grouplens.org/datasets/movielens"
MOVIELENS_RELEASES: dict[str, str] = {
    name: f"{_BASE}/{name}.zip"
    for name in ("ml-latest-small", "ml-latest", "ml-25m", "ml-20m", "ml-1m", "ml-10m")
}


def download_movielens(name: str, dest: Path, *, timeout_s: float = 30.0) -> Path:
    """Download release ``name`` into the folder ``dest``; returns ``dest / f"{name}.zip"``.

    The zip is written to a temporary file first and renamed into place once complete.
    """
    url = MOVIELENS_RELEASES.get(name)
    if url is None:
        known = ", ".join(MOVIELENS_RELEASES)
        raise DataError(f"unknown MovieLens release {name!r}; expected one of {known}")
    dest = Path(dest)
    target = dest / f"{name}.zip"
    try:
        dest.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=dest)
    except OSError as err:
        raise DataError(f"{dest}: cannot write there ({err}); expected a writable folder") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=timeout_s) as resp:
            shutil.copyfileobj(resp, out, length=1 << 20)
        if not zipfile.is_zipfile(tmp):
            raise DataError(f"{url}: the download is not a zip archive; expected {name}.zip")
        os.replace(tmp, target)
    except (urllib.error.URLError, OSError) as err:
        if isinstance(err, urllib.error.HTTPError):
            reason: object = f"HTTP {err.code} {err.reason}"
        else:
            reason = getattr(err, "reason", None) or err
        raise DataError(
            f"could not download {name} from {url}: {reason}; download it in a browser "
            f"and run `macrs-sim data prepare movielens PATH`"
        ) from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return target
