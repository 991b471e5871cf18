"""What a loader reports: sizes, and what it dropped from messy input and why."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Dropped:
    """Counts of rows a loader left out, by reason ("reviews of items with no metadata").

    Stored in the database's meta as `dropped: <reason>` rows and printed by `data prepare`;
    a reason with count 0 is neither."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, reason: str, n: int = 1) -> None:
        self.counts[reason] = self.counts.get(reason, 0) + n

    def meta(self) -> dict[str, str]:
        return {f"dropped: {reason}": str(n) for reason, n in sorted(self.counts.items()) if n}

    def lines(self) -> list[str]:
        return [f"dropped {n:,} {reason}" for reason, n in sorted(self.counts.items()) if n]


@dataclass(frozen=True)
class PrepareResult:
    """A finished database: its path, what it holds, and what was left out."""

    database: Path
    kind: str  # the dataset kind that read it ("amazon")
    release: str  # which release or file set ("amazon-2018:Luxury_Beauty")
    n_users: int
    n_items: int
    n_interactions: int
    wall_s: float = 0.0
    # What `data prepare` prints after the sizes: what was dropped and why, other notes.
    lines: tuple[str, ...] = ()
