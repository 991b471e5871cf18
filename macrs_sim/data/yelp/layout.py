"""Where a Yelp download's two files are: PATH is their folder, or the business file.

Yelp publishes a tar holding `yelp_academic_dataset_business.json` and
`yelp_academic_dataset_review.json` (plus check-in, tip and user files this loader does not
read); people often gzip them to save space, so `.json.gz` is found too. Given both a plain
and a gzipped copy, the plain one is read (it is faster, and the two are the same file).
Whether a file is gzip is told by its first bytes (prepared/files.py), not its name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from macrs_sim.errors import DataError

BUSINESS = "yelp_academic_dataset_business"
REVIEW = "yelp_academic_dataset_review"
_ENDINGS = (".json", ".json.gz")
_ARCHIVES = (".tar", ".tgz", ".tar.gz", ".zip")


@dataclass(frozen=True)
class YelpFiles:
    business: Path
    review: Path


def _find(folder: Path, stem: str) -> Path | None:
    for ending in _ENDINGS:
        path = folder / f"{stem}{ending}"
        if path.is_file():
            return path
    return None


def _missing(folder: Path, stem: str, what: str) -> DataError:
    return DataError(
        f"{folder}: no {stem}.json (or .json.gz){what}; expected the Yelp Open Dataset's "
        "business and review files, as the tar Yelp publishes unpacks them"
    )


def _beside(business: Path) -> Path:
    """The review file next to a business file: its name with "business" made "review"
    (keeps a renamed pair together), else the published names."""
    folder = business.parent
    if "business" in business.name:
        twin = business.name.removesuffix(".gz").replace("business", "review")
        for name in (twin, f"{twin}.gz"):  # gzipped or not, apart from the business file
            if (folder / name).is_file():
                return folder / name
    found = _find(folder, REVIEW)
    if found is None:
        raise _missing(folder, REVIEW, f" beside {business.name}")
    return found


def _from_file(source: Path) -> YelpFiles:
    name = source.name.lower()
    if name.endswith(_ARCHIVES):
        raise DataError(
            f"{source}: an archive; expected the folder it unpacks to (tar -xf {source.name}) "
            "or the business file in it"
        )
    if "review" in name and "business" not in name:
        raise DataError(
            f"{source}: the review file; expected the business file (the review file is "
            "found beside it) or their folder"
        )
    return YelpFiles(business=source, review=_beside(source))


def locate(source: Path) -> YelpFiles:
    """The business and review files of `source`; one-line errors naming what is missing."""
    if source.is_dir():
        business = _find(source, BUSINESS)
        if business is None:
            raise _missing(source, BUSINESS, "")
        review = _find(source, REVIEW)
        if review is None:
            raise _missing(source, REVIEW, "")
        return YelpFiles(business=business, review=review)
    if source.is_file():
        return _from_file(source)
    raise DataError(
        f"{source}: no such file or folder; expected the folder holding {BUSINESS}.json and "
        f"{REVIEW}.json, or the business file"
    )
