"""Title -> catalog id grounding: exact, then normalised, then fuzzy (score recorded).

Acceptance rests on this, so it is deterministic and auditable: every
recommended title keeps the method and score that matched it.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict

from rapidfuzz import fuzz, process

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import Item, ItemRef

_YEAR = re.compile(r"\s*[\(\[]\s*((?:19|20)\d\d)\s*[\)\]]\s*$")
_ARTICLE_SUFFIX = re.compile(r",\s*(the|a|an)$")
_LEADING_ARTICLE = re.compile(r"^(the|a|an)\s+")


def split_year(title: str) -> tuple[str, int | None]:
    """'Heat (1995)' -> ('Heat', 1995)."""
    m = _YEAR.search(title)
    if not m:
        return title.strip(), None
    return title[: m.start()].strip(), int(m.group(1))


def normalize_title(title: str) -> str:
    """Lowercase, no accents/punctuation/year/leading article: 'The Matrix (1999)' -> 'matrix'."""
    base, _ = split_year(title.strip().strip("\"'“”‘’*"))
    text = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode().lower()
    text = _ARTICLE_SUFFIX.sub("", text)  # MovieLens style "Matrix, The"
    text = text.replace("&", " and ")
    text = re.sub(r"[^a-z0-9]+", " ", text).strip()
    return _LEADING_ARTICLE.sub("", text)


class Grounder:
    def __init__(self, catalog: Catalog, *, fuzzy_threshold: float = 88.0) -> None:
        self._exact: dict[str, list[Item]] = defaultdict(list)
        self._norm: dict[str, list[Item]] = defaultdict(list)
        for item in catalog:
            self._exact[item.title].append(item)
            self._exact[item.display_title].append(item)
            self._norm[normalize_title(item.title)].append(item)
        # Alternative titles ("Se7en", original-language titles) only where no main title is.
        main_exact, main_norm = set(self._exact), set(self._norm)
        for item in catalog:
            for aka in item.aka:
                if aka not in main_exact:
                    self._exact[aka].append(item)
                if normalize_title(aka) not in main_norm:
                    self._norm[normalize_title(aka)].append(item)
        self._norm_keys = list(self._norm)
        self.fuzzy_threshold = fuzzy_threshold

    def ground(self, said: str) -> ItemRef:
        title = said.strip()
        _, year = split_year(title)
        if title in self._exact:
            return self._ref(title, self._pick(self._exact[title], year), 1.0, "exact")
        key = normalize_title(title)
        if key in self._norm:
            return self._ref(title, self._pick(self._norm[key], year), 1.0, "normalized")
        if not key:
            return ItemRef(title=title)
        best = process.extractOne(key, self._norm_keys, scorer=fuzz.ratio)
        if best is None:
            return ItemRef(title=title)
        match, score, _ = best
        if score < self.fuzzy_threshold:
            return ItemRef(title=title, score=round(score / 100, 4))
        return self._ref(title, self._pick(self._norm[match], year), score / 100, "fuzzy")

    @staticmethod
    def _pick(candidates: list[Item], year: int | None) -> Item:
        # Same title, different films (remakes): the stated year decides, else the first.
        for item in candidates:
            if year is not None and item.year == year:
                return item
        return candidates[0]

    @staticmethod
    def _ref(said: str, item: Item, score: float, method: str) -> ItemRef:
        return ItemRef.model_validate(
            {"title": said, "item_id": item.item_id, "score": round(score, 4), "method": method}
        )
