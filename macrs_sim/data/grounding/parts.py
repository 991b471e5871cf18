"""Films named by part of their title: a short name, a subtitle, or both ends.

"Terminator 2" names "Terminator 2: Judgment Day", "The Empire Strikes Back" names
"Star Wars: Episode V - The Empire Strikes Back", "Star Wars: A New Hope" names
Episode IV. A short name alone names a film only with a number or year that agrees
("Alien" never means "Alien: Resurrection", "Mad Max" never "Mad Max: Fury Road"), or
when the title itself says so ("Dr. Strangelove or: How I Learned ..."). The grounder
accepts the result only if exactly one film remains after the year check.
"""

from __future__ import annotations

from macrs_sim.data.grounding.index import TitleIndex
from macrs_sim.data.grounding.keys import Part, TitleKey
from macrs_sim.protocol import Item


def by_parts(index: TitleIndex, key: TitleKey, stated_year: bool) -> list[Item]:
    first, last = key.parts[0], key.parts[-1]
    # A subtitle of one word ("Fallout") is too common to name a film without a year;
    # a number counts as a word ("The Two Towers").
    distinctive = len(last.words.split()) + len(last.numbers) >= 2 or stated_year
    numbered = bool(key.full.numbers) or key.states_one
    if len(key.parts) == 1:
        heads = index.head.get(first, [])
        if numbered:  # "Terminator 2": the number is the whole film's
            heads = [i for i in heads if index.keys[i.item_id].full.numbers == key.full.numbers]
        elif not stated_year:
            heads = [i for i in heads if i.item_id in index.or_titles]
        return [*heads, *(index.tail.get(last, []) if distinctive else [])]
    found = [i for i in index.head.get(first, []) if same_ends(key, index.keys[i.item_id])]
    if first.numbers or stated_year or key.or_title:
        # The said title's short name is the catalog's title, so the catalog film's number
        # must be the one said: "Kill Bill: Vol. 2 (2004)" is not "Kill Bill: Vol. 1".
        found += [i for i in index.keyed(first) if _number(index, i, first) == key.full.numbers]
    return list({i.item_id: i for i in found}.values())


def _number(index: TitleIndex, item: Item, matched: Part) -> tuple[int, ...]:
    """The number of the film whose title `matched` is: its own, or the one an alias
    knows it by ("Star Wars" is Episode IV)."""
    return index.true_numbers.get(item.item_id, matched.numbers)


def same_ends(said: TitleKey, item: TitleKey) -> bool:
    """Said parts all in the item's title, the last one its subtitle or its number."""
    last = said.parts[-1]
    if not set(said.parts) <= set(item.parts):
        return False
    if last != item.parts[-1] and last.words:
        return False
    return not said.full.numbers or said.full.numbers == item.full.numbers
