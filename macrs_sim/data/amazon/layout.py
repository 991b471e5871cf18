"""Which Amazon Reviews release a download is, told by its file names as published.

- 2014 (McAuley): reviews_<Category>_5.json(.gz) and meta_<Category>.json(.gz);
- 2018 (Ni et al.): <Category>_5.json(.gz) and meta_<Category>.json(.gz);
- 2023 (Hou et al.): <Category>.jsonl(.gz) and meta_<Category>.jsonl(.gz).

The full (not 5-core) review files of 2014 and 2018 (reviews_<Category>.json.gz,
<Category>.json.gz) read the same way. PATH is the reviews file or a folder holding exactly
one; the metadata file is the meta_ file beside it unless named (--meta). The fields of the
first record then confirm the release (records.py), so a renamed file is one clear line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.errors import DataError

EXPECTED = (
    "expected an Amazon Reviews file as published: reviews_<Category>_5.json(.gz) (2014), "
    "<Category>_5.json(.gz) (2018) or <Category>.jsonl(.gz) (2023), or a folder holding "
    "one of them and its meta_<Category> file"
)
_GZ = r"(?:\.gz)?"
# Tried in order: the 2014 prefix first, since the 2018 pattern matches its names too.
_REVIEWS = (
    ("2014", re.compile(rf"reviews_(?P<category>.+?)(?:_5)?\.json{_GZ}")),
    ("2023", re.compile(rf"(?P<category>.+)\.jsonl{_GZ}")),
    ("2018", re.compile(rf"(?P<category>.+?)(?:_5)?\.json{_GZ}")),
)


@dataclass(frozen=True)
class Source:
    release: str  # "2014", "2018" or "2023"
    category: str  # "Luxury_Beauty"
    reviews: Path
    meta: Path

    @property
    def name(self) -> str:
        return f"amazon-{self.release}:{self.category}"


def _match(name: str) -> tuple[str, str] | None:
    """(release, category) of a reviews file's name; None for any other name."""
    if name.startswith("meta_"):
        return None
    for release, pattern in _REVIEWS:
        found = pattern.fullmatch(name)
        if found:
            return release, found["category"]
    return None


def _reviews_in(folder: Path) -> Path:
    found = sorted(p for p in folder.iterdir() if p.is_file() and _match(p.name))
    if not found:
        raise DataError(f"{folder}: holds no Amazon Reviews file; {EXPECTED}")
    if len(found) > 1:
        names = ", ".join(p.name for p in found[:3]) + (", ..." if len(found) > 3 else "")
        raise DataError(
            f"{folder}: holds {len(found)} reviews files ({names}); expected exactly one "
            "(or name the reviews file itself)"
        )
    return found[0]


def _meta_beside(reviews: Path, release: str, category: str) -> Path:
    """meta_<Category> beside the reviews, compressed like them where both forms exist."""
    suffix = ".jsonl" if release == "2023" else ".json"
    names = [f"meta_{category}{suffix}.gz", f"meta_{category}{suffix}"]
    if not reviews.name.endswith(".gz"):
        names.reverse()
    for name in names:
        if (reviews.parent / name).is_file():
            return reviews.parent / name
    raise DataError(
        f"{reviews}: no meta_{category}{suffix}(.gz) beside it; expected the release's "
        "metadata file there (or name it with --meta)"
    )


def locate(path: Path, meta: Path | None) -> Source:
    """The release at `path` (a reviews file or its folder) and its metadata file."""
    if path.is_dir():
        path = _reviews_in(path)
    elif not path.is_file():
        raise DataError(f"{path}: no such file or folder; {EXPECTED}")
    elif path.name.startswith("meta_"):
        raise DataError(f"{path}: is a metadata file; {EXPECTED}")
    matched = _match(path.name)
    if matched is None:
        raise DataError(f"{path}: not an Amazon Reviews file name; {EXPECTED}")
    release, category = matched
    if meta is None:
        meta = _meta_beside(path, release, category)
    elif not meta.is_file():
        raise DataError(f"--meta {meta}: no such file; expected the meta_{category} file")
    elif meta.resolve() == path.resolve():
        raise DataError(f"--meta {meta}: is the reviews file; expected the meta_{category} file")
    return Source(release, category, path, meta)
