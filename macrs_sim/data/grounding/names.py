"""Product and business names -> catalog id: a mention names an item only when it names
that item and no other.

Titles here are long and carry what tells variants apart ("Neutrogena Hydro Boost Water
Gel, 1.7 oz" beside its 3.4 oz sibling), and a chain has one name in many cities. People
say less than the whole name ("the Hydro Boost gel"). So a mention matches an item when
every word it says is a word of the item's name or of a qualifier (its brand, its city),
it says enough of the name to be a name (not a brand alone, not one common word), and no
other item fits as well. Two or more that fit: ambiguous, and nothing is matched; a guess
here would accept the 1.7 oz gel for a user who wanted the 3.4 oz one.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from rapidfuzz.distance import OSA

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding.keys import fold
from macrs_sim.data.grounding.normalise import strip_decorations
from macrs_sim.data.grounding.spelling import allowed_edits
from macrs_sim.protocol import Item, ItemRef

# Words that join a name without naming anything ("the gel by Neutrogena in Tempe").
_FILLER = frozenset(
    {"the", "a", "an", "and", "of", "for", "from", "by", "at", "in", "on", "with", "its", "it",
     "this", "that", "one", "size", "version"}
)  # fmt: skip
_POSSESSIVE = re.compile(r"(?<=[a-z0-9])'s\b")
# "1.7oz" -> "1.7 oz", "12pack" -> "12 pack": a size said either way is the same words.
_NUMBER_UNIT = re.compile(r"(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)")
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z0-9]+")
# "$50.00" and "$50", "1.70 oz" and "1.7 oz": one amount.


def _amount(token: str) -> str:
    if "." not in token or not token[0].isdigit():
        return token
    whole, _, frac = token.partition(".")
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


def name_words(text: str) -> tuple[str, ...]:
    """Lower-case words of a name, fillers out, possessives and units split: in order."""
    low = _POSSESSIVE.sub("", text.lower().replace("’", "'"))
    low = _NUMBER_UNIT.sub(" ", fold(low))
    return tuple(_amount(t) for t in _TOKEN.findall(low) if t not in _FILLER)


Method = Literal["exact", "normalized", "fuzzy"]


@dataclass(frozen=True)
class _Entry:
    item: Item
    name: frozenset[str]  # the title's words
    qualifiers: frozenset[str]  # words of the qualifying attributes (brand, city)

    @property
    def own(self) -> frozenset[str]:
        """The name's words that are not a qualifier's ("hydro boost gel", not "neutrogena")."""
        return self.name - self.qualifiers


class NameGrounder:
    """`qualifiers`: the attributes that may be said with a name (data/domain.py)."""

    def __init__(
        self,
        catalog: Catalog,
        *,
        qualifiers: Iterable[str] = (),
        popularity: Mapping[str, int] | None = None,  # unused: a name never picks by it
    ) -> None:
        del popularity
        names = tuple(qualifiers)
        self._entries: list[_Entry] = []
        self._exact: dict[tuple[str, ...], list[int]] = defaultdict(list)
        self._by_word: dict[str, set[int]] = defaultdict(set)
        for n, item in enumerate(catalog):
            words = name_words(item.title)
            extra = {w for a in names for v in item.attribute(a) for w in name_words(v)}
            entry = _Entry(item, frozenset(words), frozenset(extra))
            self._entries.append(entry)
            for title in (item.title, *item.aka):
                self._exact[name_words(title)].append(n)
            for word in entry.name | entry.qualifiers:
                self._by_word[word].add(n)

    def ground(self, said: str) -> ItemRef:
        shown = said.strip()
        text, _ = strip_decorations(said)
        words = name_words(text)
        if not words:
            return ItemRef(title=shown)
        exact = self._exact.get(words)
        if exact:
            return self._one(shown, exact, "exact", 1.0)
        repaired = tuple(self._respelled(w) for w in words)
        method: Method = "fuzzy" if repaired != words else "normalized"
        holding = self._containing(set(repaired))
        if not any(self._names(set(repaired), n) for n in holding):
            return ItemRef(title=shown)
        # Every item that holds each word said fits it, named enough or not: "Dove shampoo"
        # fits "Shampoo" (by Dove) and "Dove Men+Care Shampoo, 12 oz" alike.
        return self._one(shown, sorted(holding), method, 1.0)

    def _respelled(self, word: str) -> str:
        """A word no name has, respelled as the one known word it is a slip of (one edit, a
        word of five letters or more); left as it is when none or several are that close."""
        if word in self._by_word or len(word) < 5 or word[0].isdigit():
            return word
        near = [w for w in self._by_word if abs(len(w) - len(word)) <= 1 and w[0] == word[0]]
        close = [w for w in near if OSA.distance(word, w) <= allowed_edits(w)]
        return close[0] if len(close) == 1 else word

    def _containing(self, words: set[str]) -> set[int]:
        """Items whose name and qualifier words hold every word said."""
        pools = sorted((self._by_word.get(w, set()) for w in words), key=len)
        found = set(pools[0])
        for pool in pools[1:]:
            found &= pool
            if not found:
                break
        return found

    def _names(self, words: set[str], n: int) -> bool:
        """The mention says enough of item n's own name: two of its own words (one for a
        one-word name), never only qualifiers (a brand alone is a maker, not a product)."""
        own = self._entries[n].own
        return bool(own) and len(words & own) >= min(2, len(own))

    def _one(self, shown: str, fits: list[int], method: Method, score: float) -> ItemRef:
        if len(set(fits)) > 1:
            return ItemRef(title=shown, method="ambiguous")
        item = self._entries[fits[0]].item
        return ItemRef(title=shown, item_id=item.item_id, score=score, method=method)
