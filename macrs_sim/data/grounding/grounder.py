"""Title -> catalog id: exact, then by key, then by title part or alias, then fuzzy.

Acceptance rests on this, so it never guesses across what a title states: a stated
year must agree (±1) with the item's, numbers must be equal (a first film has none),
and fuzzy matching repairs only the spelling of the words. Every result keeps the
method and score that matched it, so fuzzy and ambiguous acceptances can be audited.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from rapidfuzz import fuzz, process

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding.index import TitleIndex
from macrs_sim.data.grounding.keys import Part, TitleKey, title_key
from macrs_sim.data.grounding.normalise import strip_decorations
from macrs_sim.data.grounding.parts import by_parts
from macrs_sim.data.grounding.spelling import is_misspelling
from macrs_sim.protocol import Item, ItemRef

Method = Literal["exact", "normalized", "fuzzy", "ambiguous"]
MIN_FUZZY_CHARS = 5  # shorter words are too close to other real titles ("Heat", "Heath")


class Grounder:
    """`popularity` (item id -> interaction count) decides between same-titled films
    when no year is stated; without it the film listed first wins. It is read only then
    (a campaign's is computed on first use), never copied."""

    def __init__(
        self,
        catalog: Catalog,
        *,
        popularity: Mapping[str, int] | None = None,
        fuzzy_threshold: float = 80.0,
    ) -> None:
        self._index = TitleIndex(catalog)
        self._order = {item.item_id: n for n, item in enumerate(catalog)}
        self._items = {item.item_id: item for item in catalog}
        self._popularity: Mapping[str, int] = popularity if popularity is not None else {}
        self.fuzzy_threshold = fuzzy_threshold

    def ground(self, said: str) -> ItemRef:
        shown = said.strip()
        index = self._index
        as_listed = index.display.get(shown)
        if as_listed:  # "Heat (1995)", exactly as the catalog writes it: the common case
            return self._choose(shown, as_listed, None, "exact") or _none(shown)
        title, year = strip_decorations(said)
        ref, named = self._first(shown, [(index.exact.get(title), "exact")], year)
        if ref is not None:
            return self._unless_a_sibling_fits_better(ref, title, year)
        key = title_key(title)
        if not (key.full.words or key.full.numbers):
            return _none(shown)
        # Main titles before alternative ones: "Ocean's 11" is both films' name, not only
        # the alternative title of the 1960 one.
        tiers: list[tuple[Sequence[Item] | None, Method]] = [
            (self._as_said(key, index.key.get(key.full)), "normalized"),
            (index.exact_aka.get(title), "exact"),
            (self._as_said(key, index.key_aka.get(key.full)), "normalized"),
        ]
        ref, named_by_key = self._first(shown, tiers, year)
        if ref is not None:
            return self._unless_a_sibling_fits_better(ref, title, year)
        return self._by_name_part(shown, key, year, named or named_by_key)

    def _unless_a_sibling_fits_better(self, ref: ItemRef, title: str, year: int | None) -> ItemRef:
        """A year one off is a slip, unless a film of the same words (another instalment)
        has exactly that year: "Kill Bill (2004)" is Vol. 2, not Vol. 1 (2003)."""
        item = self._items[ref.item_id or ""]
        if year is None or item.year in (None, year):
            return ref
        siblings = self._index.by_words.get(title_key(title).full.words, ())
        if any(i.year == year for i in siblings if i.item_id != item.item_id):
            return _none(ref.title)
        return ref

    def _first(
        self, shown: str, tiers: Sequence[tuple[Sequence[Item] | None, Method]], year: int | None
    ) -> tuple[ItemRef | None, bool]:
        """From the first tier naming a film from the stated year; whether any tier named one."""
        named = False
        for items, method in tiers:
            if items:
                named = True
                ref = self._choose(shown, items, year, method)
                if ref is not None:
                    return ref, True
        return None, named

    def _as_said(self, key: TitleKey, items: Sequence[Item] | None) -> list[Item]:
        """Drops films whose real number (known from an alias: "Star Wars" is Episode IV)
        is not the number said ("Star Wars: Episode I" states a 1)."""
        if not items or not (key.states_one or key.full.numbers):
            return list(items or ())
        real = self._index.true_numbers
        return [i for i in items if real.get(i.item_id, key.full.numbers) == key.full.numbers]

    def _by_name_part(self, shown: str, key: TitleKey, year: int | None, named: bool) -> ItemRef:
        by_part = self._agreeing(
            self._as_said(key, by_parts(self._index, key, year is not None)), year
        )
        if len(by_part) == 1:  # a short name or subtitle must point at one film
            return self._ref(shown, by_part[0], "normalized", 1.0)
        # An alias names a film without its number: "Star Wars: Episode I" is not one.
        aliases = [] if key.states_one else self._index.alias_items(key.full)
        aliased = self._choose(shown, aliases, year, "normalized")
        if aliased is not None or named:
            # A title the catalog has, but not from the stated year, is never respelled.
            return aliased or _none(shown)
        return self._fuzzy(shown, key, year)

    def _fuzzy(self, shown: str, key: TitleKey, year: int | None) -> ItemRef:
        full = key.full
        if len(full.words) < MIN_FUZZY_CHARS:
            return _none(shown)
        choices = self._index.blocks.candidates(full)
        hits = process.extract(
            full.words, choices, scorer=fuzz.ratio, score_cutoff=self.fuzzy_threshold, limit=6
        )
        # The blocks overlap, so one title can come back more than once.
        unique = {h[0]: h for h in reversed(hits)}.values()
        close = sorted((h for h in unique if is_misspelling(full.words, h[0])), key=lambda h: -h[1])
        if not close or (len(close) > 1 and close[1][1] == close[0][1]):
            return _none(shown)  # nothing close, or two titles equally close: no guess
        match, score, _ = close[0]
        items = self._as_said(key, self._index.keyed(Part(match, full.numbers)))
        return self._choose(shown, items, year, "fuzzy", score / 100) or _none(shown)

    @staticmethod
    def _agreeing(items: Sequence[Item], year: int | None) -> list[Item]:
        if year is None:
            return list(items)
        near = [i for i in items if i.year is None or abs(i.year - year) <= 1]
        return [i for i in near if i.year == year] or near

    def _choose(
        self,
        shown: str,
        items: Sequence[Item],
        year: int | None,
        method: Method,
        score: float = 1.0,
    ) -> ItemRef | None:
        pool = self._agreeing(items, year)
        if not pool:
            return None
        if len(pool) == 1:
            return self._ref(shown, pool[0], method, score)
        # Same title, no deciding year (remakes): the most interacted-with film, flagged.
        best = max(
            pool, key=lambda i: (self._popularity.get(i.item_id, 0), -self._order[i.item_id])
        )
        return self._ref(shown, best, "fuzzy" if method == "fuzzy" else "ambiguous", score)

    @staticmethod
    def _ref(shown: str, item: Item, method: Method, score: float) -> ItemRef:
        return ItemRef(title=shown, item_id=item.item_id, score=round(score, 4), method=method)


def _none(shown: str) -> ItemRef:
    return ItemRef(title=shown)
