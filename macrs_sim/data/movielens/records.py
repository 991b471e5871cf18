"""Plain records passed between the readers and the database writer."""

from __future__ import annotations

from dataclasses import dataclass, field


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
