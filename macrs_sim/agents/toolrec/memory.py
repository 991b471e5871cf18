"""The memory strategy (paper §3.4): every item a tool returns is checked against the item
pool directory, and each validated set is stored with its tool mark.

The candidate list is what the surrogate user would present now: a retrieval adds its new
items after the current ones (paper Fig. 1: "complement the set"), a ranking replaces the
list with its ordered top K.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import Record

# "ID m138, ..." / "ID: m138"; what may wrap an id: "<m138>", "[m138]", "m138,".
_ID_LABEL = re.compile(r"^(?:item\s*)?id\s*[:#]?\s*", re.IGNORECASE)
_ID_EDGE = "<>[]()#,.:;"


class ItemSet(Record):
    """One tool result as stored: the round, the tool mark, the validated item ids."""

    round: int
    mark: str
    items: tuple[str, ...]


class Checked(Record):
    valid: tuple[str, ...]
    # References that are not in the directory, or not among the allowed items.
    invalid: tuple[str, ...] = ()


class ToolMemory:
    def __init__(self, catalog: Catalog, history: Sequence[str]) -> None:
        self.catalog = catalog
        # The history in order (what the retriever reads) and as a set (what is excluded).
        self.sequence = tuple(history)
        self.history = frozenset(history)
        self.sets: list[ItemSet] = []
        self.current: list[str] = []
        # Display titles of the catalog, casefolded, for a model that wrote a title.
        self._by_title: dict[str, str] = {}
        for item in catalog:
            self._by_title.setdefault(item.display_title.casefold(), item.item_id)

    def resolve(self, ref: str) -> str | None:
        """A catalog id written as the id, "id: title", the exact "Title (Year)", or as the
        authors' rank prompts make models write it: "<m138>", "m138, Title, 9.5",
        "m138 Title (Year)", "ID m138, Title"."""
        text = ref.strip().strip("`'\"").strip()
        titled = self._by_title.get(text.casefold())
        if text not in self.catalog and titled is not None:  # "12 Angry Men (1957)"
            return titled
        bare = _ID_LABEL.sub("", text, count=1)
        words = bare.split(maxsplit=1)
        heads = (text, text.split(":", 1)[0], bare.split(",", 1)[0], words[0] if words else "")
        for head in heads:
            item_id = head.strip().strip(_ID_EDGE)
            if item_id in self.catalog:
                return item_id
        return None

    def check(self, refs: Sequence[str], allowed: Collection[str] | None = None) -> Checked:
        """Valid ids in order (repeats and history items dropped) and the refs that failed."""
        valid: list[str] = []
        invalid: list[str] = []
        for ref in refs:
            item_id = self.resolve(ref)
            refused = allowed is not None and item_id not in allowed
            if item_id is None or item_id in self.history or refused:
                invalid.append(ref)
            elif item_id not in valid:
                valid.append(item_id)
        return Checked(valid=tuple(valid), invalid=tuple(invalid))

    def add_retrieved(self, round_no: int, mark: str, items: Sequence[str]) -> ItemSet:
        stored = ItemSet(round=round_no, mark=mark, items=tuple(items))
        self.sets.append(stored)
        self.current += [i for i in items if i not in self.current]
        return stored

    def set_ranked(self, round_no: int, mark: str, items: Sequence[str]) -> ItemSet:
        stored = ItemSet(round=round_no, mark=mark, items=tuple(items))
        self.sets.append(stored)
        self.current = list(items)
        return stored

    def pool(self) -> list[str]:
        """Every item a tool returned this run: the current list, then the others in the
        order their sets were stored (what the final ranking chooses from)."""
        out = list(self.current)
        for s in self.sets:
            out += [i for i in s.items if i not in out]
        return out

    def marks(self) -> dict[str, list[str]]:
        """Each current item's tool marks (every stored set that holds it), for the prompt."""
        out: dict[str, list[str]] = {i: [] for i in self.current}
        for s in self.sets:
            for i in s.items:
                if i in out and s.mark not in out[i]:
                    out[i].append(s.mark)
        return out
