"""The values a catalog holds for one attribute, and which of them a text names.

Whole phrases, case-insensitive, with `$` counted as part of a word, so Yelp's "$$" is not
found inside "$$$" and "under $10" not inside "under $100". A catalog's values are indexed
by their first word, so a reply is checked against the few values that share a word with
it, not against every brand of the catalog.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence

_WORD = re.compile(r"[a-z0-9]+")


@functools.lru_cache(maxsize=8192)
def value_pattern(value: str) -> re.Pattern[str] | None:
    """The pattern that finds `value` whole in lower-cased text (None for a blank)."""
    low = " ".join(value.lower().split())
    if not low:
        return None
    return re.compile(r"(?<![a-z0-9$])" + re.escape(low) + r"(?![a-z0-9$])")


def names_value(text: str, value: str) -> bool:
    pattern = value_pattern(value)
    return pattern is not None and pattern.search(text.lower()) is not None


def names_any(text: str, values: Iterable[str]) -> bool:
    return any(names_value(text, v) for v in values)


def _itself(value: str) -> Sequence[str]:
    return (value,)


class ValueIndex:
    """One attribute's values over a catalog; `named(text)` gives those the text names.

    `forms` gives the phrases that name a value (a genre's other words: "Sci-Fi" is also
    "science fiction"); by default the value itself.
    """

    def __init__(
        self, values: Iterable[str], forms: Callable[[str], Sequence[str]] = _itself
    ) -> None:
        self._by_word: dict[str, list[tuple[str, str]]] = {}
        self._no_word: list[tuple[str, str]] = []  # "$$": no letters or digits to index
        self.forms = forms
        for value in dict.fromkeys(v.strip() for v in values if v.strip()):
            for form in forms(value):
                words = _WORD.findall(form.lower())
                entry = (form, value)
                if words:
                    self._by_word.setdefault(words[0], []).append(entry)
                else:
                    self._no_word.append(entry)

    def __bool__(self) -> bool:
        return bool(self._by_word or self._no_word)

    def named(self, text: str) -> list[str]:
        """The values `text` names, each once, in the order they are first met."""
        low = text.lower()
        words = dict.fromkeys(_WORD.findall(low))
        candidates = [e for w in words for e in self._by_word.get(w, ())] + self._no_word
        return list(dict.fromkeys(value for form, value in candidates if names_value(low, form)))

    def names(self, text: str, value: str) -> bool:
        """Whether `text` names `value` (in the catalog or not) by any of its forms."""
        return names_any(text, self.forms(value))
