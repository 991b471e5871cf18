"""The shorter names that still name a film (or game): those the grounder maps to it.

A simulated user can name its target without its full title: by the title's main part
("Kill Bill", "Terminator 2"), its subtitle ("The Empire Strikes Back"), its main part and
subtitle without the episode ("Star Wars: A New Hope") or a name it is widely known by
("Star Wars" for Episode IV, "T2"). The candidates come from the title's parts and the
grounder's alias groups; one is kept only when the grounder, given the target alone, maps
it to the target. So the guard and the grounder agree on what names the target: "Alien"
never names "Alien: Resurrection", as the grounder never maps it there, and "Star Trek"
alone names no "Star Trek: First Contact".
"""

from __future__ import annotations

import re
from functools import lru_cache

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder, Part, normalize_title, split_year, title_key
from macrs_sim.data.grounding.aliases import ALIAS_GROUPS
from macrs_sim.protocol import Item

# Where a title's parts meet: " or: ", a colon not between digits, a spaced dash.
_PARTS = re.compile(r"\s+or:\s*|\s*(?:(?<!\d):|:(?!\d))\s*|\s+-+\s+")
_ARTICLE_SUFFIX = re.compile(r",\s*(?:the|a|an)\s*$", re.IGNORECASE)


def part_forms(name: str) -> list[str]:
    """The main part, the subtitle, and the two together, of a title of several parts."""
    parts = _parts(name)
    if len(parts) < 2:
        return []
    return [parts[0], parts[-1], f"{parts[0]}: {parts[-1]}"]


def numbered_forms(name: str) -> list[str]:
    """The main part with the title's own episode number ("Star Wars: Episode IV" of
    "Star Wars: Episode IV - A New Hope"): it names the film by its number, though the
    grounder, wanting the subtitle, does not map it."""
    parts = _parts(name)
    return [
        f"{parts[0]}: {p}"
        for p in parts[1:-1]
        if title_key(p).full.numbers and not title_key(p).full.words
    ]


def _parts(name: str) -> list[str]:
    bare = _ARTICLE_SUFFIX.sub("", split_year(name)[0])  # MovieLens' "Lord of the Rings: ..., The"
    return [p.strip() for p in _PARTS.split(bare) if p and p.strip()]


@lru_cache(maxsize=1)
def _alias_keys() -> tuple[tuple[frozenset[Part], tuple[str, ...]], ...]:
    return tuple((frozenset(title_key(n).full for n in names), names) for _, names in ALIAS_GROUPS)


def alias_forms(names: tuple[str, ...]) -> list[str]:
    """Every name of an alias group that holds one of `names`."""
    keys = {title_key(split_year(n)[0]).full for n in names}
    return [a for group, aliases in _alias_keys() if keys & group for a in aliases]


def grounded_forms(item: Item) -> list[str]:
    """The item's shorter names that the grounder maps to it, then its numbered forms; full
    titles left out."""
    names = (item.title, *item.aka)
    candidates = [f for n in names for f in part_forms(n)] + alias_forms(names)
    full = {normalize_title(n) for n in names}
    kept: list[str] = []
    if candidates:
        grounder = Grounder(Catalog([item]))
        kept = [
            c
            for c in dict.fromkeys(candidates)
            if normalize_title(c) not in full and grounder.ground(c).item_id == item.item_id
        ]
    forms = kept + [f for n in names for f in numbered_forms(n) if f not in kept]
    # A number alone ("2001" of "2001: A Space Odyssey") is a year as often as a name.
    return [f for f in forms if any(c.isalpha() for c in f)]
