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
    if re.match(r"(SELECT|WITH)\b", cond, re.IGNORECASE):  # a whole query (RecAI's form)
        return f"item_id IN (SELECT item_id FROM ({cond}))"
    return cond
