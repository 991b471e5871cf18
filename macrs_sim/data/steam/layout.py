"""Which files of a Steam folder to read: the games file and one interactions file.

Kang & McAuley publish steam_games.json.gz with two review sets: steam_reviews.json.gz
(the one SASRec and InteRecAgent use) and the older australian_user_reviews.json.gz. A
folder holding both reads steam_reviews unless `--interactions australian` says otherwise,
and says so in a printed line. Either name may be plain or .gz (told by the first bytes).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from macrs_sim.errors import DataError

GAMES = "steam_games.json"
INTERACTIONS = {"reviews": "steam_reviews.json", "australian": "australian_user_reviews.json"}
EXPECTED = (
    "the folder holding steam_games.json(.gz) and steam_reviews.json(.gz) or "
    "australian_user_reviews.json(.gz)"
)


@dataclass(frozen=True)
class Layout:
    games: Path
    interactions: Path
    which: str  # "reviews" or "australian"
    note: str | None = None  # printed: which file was read when both were there


def find(folder: Path, name: str) -> Path | None:
    """`name` or `name.gz` in `folder`; the plain one where both are (quicker to read)."""
    for candidate in (folder / name, folder / f"{name}.gz"):
        if candidate.is_file():
            return candidate
    return None


def _folder(source: Path, choice: str | None) -> tuple[Path, str | None]:
    """A file of the set given as PATH stands for its folder (and, for an interactions file,
    for the choice of that file)."""
    if not source.is_file():
        if not source.is_dir():
            raise DataError(f"{source}: no such folder; expected {EXPECTED}")
        return source, choice
    name = source.name.removesuffix(".gz")
    named = [which for which, file in INTERACTIONS.items() if file == name]
    if name != GAMES and not named:
        raise DataError(f"{source}: not a Steam file; expected {EXPECTED}")
    return source.parent, choice or (named[0] if named else None)


def locate(source: Path, choice: str | None) -> Layout:
    folder, choice = _folder(source, choice)
    games = find(folder, GAMES)
    if games is None:
        raise DataError(f"{folder}: no {GAMES}(.gz); expected {EXPECTED}")
    found = {which: find(folder, name) for which, name in INTERACTIONS.items()}
    if choice is not None:
        chosen = found[choice]
        if chosen is None:
            raise DataError(
                f"{folder}: no {INTERACTIONS[choice]}(.gz); expected it there "
                f"(--interactions {choice})"
            )
        return Layout(games, chosen, choice)
    reviews, australian = found["reviews"], found["australian"]
    if reviews is None and australian is None:
        raise DataError(f"{folder}: no reviews file; expected {EXPECTED}")
    if reviews is None:
        assert australian is not None
        return Layout(games, australian, "australian")
    note = None
    if australian is not None:
        note = (
            f"both {reviews.name} and {australian.name} are there: read {reviews.name} "
            "(--interactions australian reads the other)"
        )
    return Layout(games, reviews, "reviews", note)
