"""Grounding quality on labelled cases: precision, recall, and where it goes wrong.

A case names the catalog, the title as a model said it, the film it means (by display
title, so the file reads like the films it is about; null when the catalog lacks the
film) and a category. The benchmark and the tests share one case file.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import BUSINESSES, GAMES, PRODUCTS, Domain
from macrs_sim.data.grounding import ItemGrounder
from macrs_sim.data.movielens.titles import parse_genres, parse_title
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item
from macrs_sim.textfile import loads_json

CASE_FIELDS = ("catalog", "said", "expect", "category")


@dataclass(frozen=True)
class Case:
    catalog: str
    said: str
    expected: str | None  # item id
    category: str


@dataclass
class Tally:
    cases: int = 0
    present: int = 0  # cases whose film the catalog has
    returned: int = 0
    correct: int = 0
    mistakes: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        return self.correct / self.returned if self.returned else None

    @property
    def recall(self) -> float | None:
        return self.correct / self.present if self.present else None

    def as_dict(self) -> dict[str, object]:
        return {
            "cases": self.cases,
            "present": self.present,
            "returned": self.returned,
            "correct": self.correct,
            "precision": self.precision,
            "recall": self.recall,
        }


def movielens_fixture(movies_csv: Path, counts_csv: Path) -> tuple[Catalog, dict[str, int]]:
    """A catalog from a MovieLens-format movies.csv, and interaction counts per item."""
    with movies_csv.open(encoding="utf-8", newline="") as f:
        items = []
        for row in csv.DictReader(f):
            parsed = parse_title(row["title"])
            genres = tuple(parse_genres(row["genres"]))
            items.append(
                Item(
                    item_id=row["movieId"],
                    title=parsed.title,
                    year=parsed.year,
                    categories=genres,
                    aka=parsed.aka,
                )
            )
    with counts_csv.open(encoding="utf-8", newline="") as f:
        counts = {row["movieId"]: int(row["n_ratings"]) for row in csv.DictReader(f)}
    return Catalog(items), counts


def load_cases(path: Path, catalogs: Mapping[str, Catalog]) -> list[Case]:
    """Cases from JSON lines; each expected display title must name one item."""
    by_title = {
        name: {item.display_title: item.item_id for item in catalog}
        for name, catalog in catalogs.items()
    }
    cases: list[Case] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = loads_json(line)
            if "expect_id" in raw:  # same-named items (a chain's places): by id
                raw["expect"] = None
            catalog, said, expect, category = (raw[k] for k in CASE_FIELDS)
        except (json.JSONDecodeError, KeyError, TypeError):
            fields = ", ".join(CASE_FIELDS)
            raise DataError(f"{path}:{lineno}: not a case (a JSON object with {fields})") from None
        titles = by_title.get(catalog)
        if titles is None:
            raise DataError(f"{path}:{lineno}: unknown catalog {catalog!r}")
        if expect is not None and expect not in titles:
            raise DataError(f"{path}:{lineno}: {expect!r} is not in catalog {catalog!r}")
        item_id = titles[expect] if expect is not None else raw.get("expect_id")
        if item_id is not None and item_id not in catalogs[catalog]:
            raise DataError(f"{path}:{lineno}: {item_id!r} is not in catalog {catalog!r}")
        cases.append(Case(catalog, said, item_id, category))
    return cases


def domain_catalogs(folder: Path) -> dict[str, tuple[Catalog, Domain]]:
    """The hand-written catalogs of other domains (products, businesses, games) in
    `folder`, each with its domain: `<domain name>.jsonl`."""
    return {
        domain.name: (Catalog.from_jsonl(folder / f"{domain.name}.jsonl"), domain)
        for domain in (PRODUCTS, BUSINESSES, GAMES)
    }


def evaluate(cases: Sequence[Case], grounders: Mapping[str, ItemGrounder]) -> dict[str, Tally]:
    """Per category, plus "all"."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for case in cases:
        got = grounders[case.catalog].ground(case.said)
        for name in (case.category, "all"):
            tally = tallies[name]
            tally.cases += 1
            tally.present += case.expected is not None
            tally.returned += got.item_id is not None
            tally.correct += got.item_id is not None and got.item_id == case.expected
            if got.item_id != case.expected:
                tally.mistakes.append(
                    f"{case.catalog}: {case.said!r} -> {got.item_id} ({got.method}), "
                    f"expected {case.expected}"
                )
    return dict(tallies)
