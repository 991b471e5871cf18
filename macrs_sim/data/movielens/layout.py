"""Find a MovieLens release in a folder or a .zip, and open its files."""

from __future__ import annotations

import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from macrs_sim.errors import DataError

EXPECTED = "expected movies.csv + ratings.csv or movies.dat + ratings.dat"
# Folder names inside the official zips that differ from the release name.
_FOLDER_ALIASES = {"ml-10m100k": "ml-10m"}


@dataclass(frozen=True)
class Release:
    """One release: its name, ``"csv"`` or ``"dat"``, and where its files live."""

    name: str
    source_format: str
    location: Path  # the release folder, or the .zip
    members: frozenset[str]  # file names present in the release folder
    zip_prefix: str | None = None  # folder inside the zip ("" for the zip root); None: a folder

    def has(self, filename: str) -> bool:
        return filename in self.members

    def label(self, filename: str) -> str:
        """Where a file is, for messages: a path, or a path through the zip."""
        if self.zip_prefix is None:
            return str(self.location / filename)
        return f"{self.location}/{self.zip_prefix}{filename}"

    @contextmanager
    def open_binary(self, filename: str) -> Iterator[IO[bytes]]:
        try:
            if self.zip_prefix is None:
                with (self.location / filename).open("rb") as fh:
                    yield fh
                return
            with zipfile.ZipFile(self.location) as zf, zf.open(self.zip_prefix + filename) as fh:
                yield fh
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as err:
            raise DataError(
                f"{self.label(filename)}: could not read ({err}); expected a complete, "
                "readable file (download the release again if the zip is damaged)"
            ) from None


def _name(folder_name: str) -> str:
    return _FOLDER_ALIASES.get(folder_name.lower(), folder_name)


def _format(files: set[str], where: str) -> str:
    for fmt in ("csv", "dat"):
        if {f"movies.{fmt}", f"ratings.{fmt}"} <= files:
            return fmt
    found = sorted(f for f in files if f.startswith(("movies.", "ratings.")))
    detail = f"found only {', '.join(found)}" if found else "found neither"
    raise DataError(f"{where}: not a MovieLens release ({detail}); {EXPECTED}")


def _is_release_dir(path: Path) -> bool:
    files = {p.name for p in path.iterdir() if p.is_file()}
    return any({f"movies.{fmt}", f"ratings.{fmt}"} <= files for fmt in ("csv", "dat"))


def _from_folder(folder: Path) -> Release:
    root = folder
    if not _is_release_dir(folder):
        candidates = sorted(p for p in folder.iterdir() if p.is_dir() and _is_release_dir(p))
        if len(candidates) > 1:
            names = ", ".join(p.name for p in candidates)
            raise DataError(f"{folder}: holds several MovieLens releases ({names}); expected one")
        if candidates:
            root = candidates[0]
    files = {p.name for p in root.iterdir() if p.is_file()}
    return Release(_name(root.name), _format(files, str(root)), root, frozenset(files))


def _from_zip(path: Path) -> Release:
    try:
        with zipfile.ZipFile(path) as zf:
            names = [n for n in zf.namelist() if not n.endswith("/")]
    except (zipfile.BadZipFile, OSError) as err:
        raise DataError(f"{path}: not a readable zip archive ({err}); {EXPECTED}") from None
    folders: dict[str, set[str]] = {}
    for name in names:
        member = PurePosixPath(name)
        if "__MACOSX" in member.parts:
            continue
        prefix = "" if len(member.parts) == 1 else f"{member.parent}/"
        folders.setdefault(prefix, set()).add(member.name)
    found = [p for p, files in folders.items() if {"movies.csv", "movies.dat"} & files]
    if len(found) != 1:
        what = "several movies files" if found else "no movies.csv or movies.dat"
        raise DataError(f"{path}: not a MovieLens release zip ({what}); {EXPECTED}")
    prefix = found[0]
    name = _name(PurePosixPath(prefix).name) if prefix else path.stem
    fmt = _format(folders[prefix], f"{path}/{prefix}".rstrip("/"))
    return Release(name, fmt, path, frozenset(folders[prefix]), zip_prefix=prefix)


def locate_release(source: Path) -> Release:
    """The release at ``source``: a release folder, its parent, or the release .zip."""
    if not source.exists():
        raise DataError(f"{source}: not found; expected a MovieLens folder or .zip")
    if source.is_dir():
        return _from_folder(source)
    if zipfile.is_zipfile(source):
        return _from_zip(source)
    what = "corrupt zip archive" if source.suffix.lower() == ".zip" else "not a folder or a .zip"
    raise DataError(f"{source}: {what}; expected a MovieLens release folder or its .zip")
