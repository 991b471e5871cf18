"""A model-written condition grounded in the catalog, as RecAI's SQL tool does (`rewrite_sql`):
a table that does not exist becomes `items`, and a category that no item has
(`genres LIKE '%Science Fiction%'`) becomes the closest one that exists (`'%Sci-Fi%'`).

Only the category columns are grounded (RecAI's categorical columns): a person or a
keyword that no item has is an honest empty answer, not a typo to correct. RecAI matches
with sentence embeddings; here a value whose words each begin (or are begun by) a known
value's words scores 100 ("Science Fiction" / "Sci-Fi"), else the edit-distance ratio
(rapidfuzz), and below `CUTOFF` nothing is close enough and the value stays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz import fuzz, process, utils

_WORDS = re.compile(r"[a-z0-9]+")

_FROM = re.compile(r"\bFROM\s+([A-Za-z_]\w*)(\s+(?:AS\s+)?[A-Za-z_]\w*)?\s+WHERE\b", re.IGNORECASE)
CUTOFF = 70.0
_LIKE = re.compile(r"\b([A-Za-z_]\w*)\s+((?:NOT\s+)?LIKE)\s+'%([^%']+)%'", re.IGNORECASE)


class ValueGrounder:
    def __init__(
        self, tables: Sequence[str], columns: Sequence[str], values: Sequence[str]
    ) -> None:
        self.tables = {t.casefold() for t in tables}
        self.columns = {c.casefold() for c in columns}
        self.values = list(values)

    def ground(self, condition: str) -> str:
        """`condition` with unknown tables and category values replaced (the same text when
        every name exists). Only SQL outside quotes is read: a title that says "from x
        where" is a value, not a table."""
        text = self._tables(condition)
        outside = blank_quoted(text)
        pieces, at = [], 0
        for m in _LIKE.finditer(text):
            if outside[m.start()] != text[m.start()]:  # begins inside a quoted value
                continue
            pieces += [text[at : m.start()], self._value(m)]
            at = m.end()
        return "".join([*pieces, text[at:]])

    def _tables(self, condition: str) -> str:
        out, at = [], 0
        for m in _FROM.finditer(blank_quoted(condition)):
            if m.group(1).casefold() in self.tables:
                continue
            out += [condition[at : m.start(1)], "items"]
            at = m.end(1)
        return "".join([*out, condition[at:]])

    def _value(self, m: re.Match[str]) -> str:
        column, op, value = m.groups()
        if column.casefold() not in self.columns or not self.values:
            return m.group(0)
        if any(value.casefold() in known.casefold() for known in self.values):
            return m.group(0)
        best = process.extractOne(value, self.values, scorer=closeness, score_cutoff=CUTOFF)
        if best is None:
            return m.group(0)
        quoted = str(best[0]).replace("'", "''")
        return f"{column} {op} '%{quoted}%'"


def blank_quoted(text: str) -> str:
    """`text` with each character inside '...' or "..." made a space (positions kept; a
    doubled quote inside scans as one closed and opened again)."""
    out, closer = [], ""
    for ch in text:
        if closer:
            closer = "" if ch == closer else closer
            out.append(ch if not closer else " ")
        else:
            closer = ch if ch in "'\"" else ""
            out.append(ch)
    return "".join(out)


def closeness(value: str, known: str, **_: object) -> float:
    """100 when the words pair up as prefixes ("sci fi" / "Science Fiction"), else the
    rapidfuzz ratio of the two (0-100)."""
    a, b = _WORDS.findall(value.casefold()), _WORDS.findall(known.casefold())
    if (
        a
        and len(a) == len(b)
        and all(x.startswith(y) or y.startswith(x) for x, y in zip(a, b, strict=True))
    ):
        return 100.0
    return float(fuzz.ratio(utils.default_process(value), utils.default_process(known)))
