"""A model-written SQL condition, checked to be one read-only boolean expression.

No ';' (a second statement), no comments, balanced parentheses and quotes, no write or
schema keyword. The check reads the text as SQLite's tokenizer does: what is inside
'...', "...", `...` or [...] is quoted (a ')' or '"' inside [x")] neither closes the
wrapper's parenthesis nor opens a quote).
"""

from __future__ import annotations

import re

from macrs_sim.tools.args import ToolInputError

# Words that only a write, a schema change or a second database would need.
_FORBIDDEN = frozenset({
    "insert", "update", "delete", "drop", "create", "alter", "attach", "detach", "pragma",
    "vacuum", "reindex", "begin", "commit", "rollback", "savepoint", "release", "analyze",
})  # fmt: skip
_WORD = re.compile(r"[A-Za-z_]+")
_BARE_CAST = re.compile(r"(?<![\w.])cast\b(?!\s*\()", re.IGNORECASE)


# SQLite's quotes: strings '...', identifiers "...", `...` and [...] (a doubled '' "" ``
# inside is a quote closed and opened again, which scans the same).
_CLOSER = {"'": "'", '"': '"', "`": "`", "[": "]"}


def _outside_quotes(cond: str) -> str:
    """`cond` with every quoted character blanked (the quotes themselves kept); refuses a
    ';', a comment or a ')' without its '(' outside quotes, and an unclosed quote or '('."""
    outside: list[str] = []
    depth, closer = 0, ""
    for i, ch in enumerate(cond):
        if closer:
            closer = "" if ch == closer else closer
            outside.append(ch if not closer else " ")
            continue
        if ch in _CLOSER:
            closer = _CLOSER[ch]
        elif ch == ";":
            raise ToolInputError("refused: one condition only (';' would start a second statement)")
        elif cond.startswith(("--", "/*"), i):
            raise ToolInputError("refused: comments are not allowed in the condition")
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            raise ToolInputError("refused: unbalanced parentheses in the condition")
        outside.append(ch)
    if closer or depth:
        raise ToolInputError("refused: unclosed quote or parenthesis in the condition")
    return "".join(outside)


def check_condition(text: str) -> str:
    """The condition, if it is one read-only boolean expression; else a ToolInputError."""
    cond = clean_condition(text)
    query = whole_query(cond)
    if query is not None:  # RecAI's form: the ids the query returns, whatever it selects
        return f"item_id IN (SELECT {QUERY_ALIAS}.item_id FROM ({query}) AS {QUERY_ALIAS})"
    return cond


def clean_condition(text: str) -> str:
    """The condition checked (one read-only expression or query), its leading WHERE gone."""
    cond = re.sub(r"^\s*WHERE\s+", "", text.strip(), flags=re.IGNORECASE)
    if not cond:
        raise ToolInputError("the SQL condition is empty")
    text_out = _outside_quotes(cond)
    bad = sorted({w.upper() for w in _WORD.findall(text_out) if w.lower() in _FORBIDDEN})
    if bad:
        raise ToolInputError(f"refused: the condition may only read items (found {', '.join(bad)})")
    # `cast` is an SQL keyword: a bare column name becomes the quoted one.
    for m in reversed(list(_BARE_CAST.finditer(text_out))):
        cond = f'{cond[: m.start()]}"cast"{cond[m.end() :]}'
    return cond


# The wrapped query's alias: `item_id` must come from the query, never from the outer table.
QUERY_ALIAS = "hard_query"
_SELECT = re.compile(r"\s*SELECT\s+(DISTINCT\s+|ALL\s+)?", re.IGNORECASE)
_FROM_ITEMS = re.compile(r"\bFROM\s+items\b", re.IGNORECASE)


def whole_query(cond: str) -> str | None:
    """A whole `SELECT` (or `WITH`) query, its select list made `item_id` when it is a plain
    `SELECT ... FROM items` that does not return the id (`SELECT title FROM items WHERE ...`
    means those items); None for a bare condition. Another query must return `item_id`."""
    if not re.match(r"\s*(SELECT|WITH)\b", cond, re.IGNORECASE):
        return None
    text_out = _outside_quotes(cond)
    head = _SELECT.match(text_out)
    if head is None:
        return cond
    depth = 0
    for i in range(head.end(), len(text_out)):
        depth += {"(": 1, ")": -1}.get(text_out[i], 0)
        if depth == 0 and _FROM_ITEMS.match(text_out, i):
            chosen = text_out[head.end() : i]
            if re.search(r"\bitem_id\b|^\s*\*\s*$", chosen):
                return cond
            return f"{cond[: head.end()]}{_items_id(text_out[i:])} {cond[i:]}"
    return cond


_ALIAS = re.compile(r"FROM\s+items(?:\s+(?:AS\s+)?([A-Za-z_]\w*))?", re.IGNORECASE)
_NOT_ALIAS = frozenset(
    [
        "where",
        "join",
        "inner",
        "left",
        "right",
        "full",
        "cross",
        "natural",
        "on",
        "using",
        "group",
        "order",
        "limit",
        "union",
        "except",
        "intersect",
        "window",
    ]
)


def _items_id(from_clause: str) -> str:
    """The items table's id as the query names it (`i.item_id` after `FROM items i`), so a
    join with another table that has `item_id` is not ambiguous."""
    m = _ALIAS.match(from_clause)
    alias = m.group(1) if m else None
    if alias is None or alias.casefold() in _NOT_ALIAS:
        return "items.item_id"
    return f"{alias}.item_id"


def has_order_by(query: str) -> bool:
    """Whether a whole query orders its rows (outside quotes)."""
    return re.search(r"\bORDER\s+BY\b", _outside_quotes(query), re.IGNORECASE) is not None
