"""Plain records passed between the readers and the database writer."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class MovieRow:
    movie_id: int
    title: str  # raw MovieLens title, e.g. "Shawshank Redemption, The (1994)"
    genres: str  # raw "|"-separated genres
    line: int  # where it was read, for messages


@dataclass
class RatingBatch:
    """Consecutive ratings, column-wise; ``first_line`` is the file line of the first one."""

    label: str
    first_line: int
    users: list[int] = field(default_factory=list)
    items: list[int] = field(default_factory=list)
    ratings: list[float] = field(default_factory=list)
    timestamps: list[int] = field(default_factory=list)
    lines: list[int] | None = None  # exact line of each row when rows can skip lines

    def line_of(self, index: int) -> int:
        return self.lines[index] if self.lines is not None else self.first_line + index

    def __len__(self) -> int:
        return len(self.users)

    def keep(self, mask: list[bool]) -> RatingBatch:
        """The rows where ``mask`` is true, with their exact file lines."""
        picked = [i for i, ok in enumerate(mask) if ok]
        return RatingBatch(
            self.label,
            self.first_line,
            users=[self.users[i] for i in picked],
            items=[self.items[i] for i in picked],
            ratings=[self.ratings[i] for i in picked],
            timestamps=[self.timestamps[i] for i in picked],
            lines=[self.line_of(i) for i in picked],
        )


@dataclass(frozen=True)
class PrepareOptions:
    """How to treat a release's quirks; recorded in the database's meta."""

    metadata: Path | None = None  # user-supplied director/cast/overview/keywords
    strict: bool = False  # refuse rows naming a movie the movies file lacks, instead of dropping
    min_tag_users: int = 2  # a user tag counts for a movie once this many users gave it


@dataclass
class Dropped:
    """Rows skipped because their movie id is not in the movies file."""

    ratings: int = 0
    rating_movies: int = 0  # distinct movie ids among the dropped ratings
    tags: int = 0
    tag_movies: int = 0
    links: int = 0

    def meta(self) -> dict[str, str]:
        return {f"dropped_{name}": str(value) for name, value in vars(self).items()}
