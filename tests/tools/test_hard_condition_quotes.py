"""A written SQL condition is checked as SQLite reads it: [...] and `...` quote identifiers
as '...' and "..." do, so a quote or ')' inside them can neither hide the rest of the text
from the check nor close the wrapper's parenthesis. Films and popularity in films.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.tools.args import ToolInputError
from macrs_sim.tools.hard import HardFilterTool, check_condition

UNBALANCED = "refused: unbalanced parentheses in the condition"

# Each opens a "quote" the old check saw inside [...] or `...`, hiding a ')' that closes the
# wrapper, a '?' that takes the LIMIT's value and a comment that drops ORDER BY and LIMIT.
ESCAPES = [
    'item_id IN (SELECT item_id AS [a"] FROM items)) OR ? > 0 --")',
    "item_id IN (SELECT item_id AS [a'] FROM items)) OR ? > 0 --')",
    "item_id IN (SELECT item_id AS `a'` FROM items)) OR ? > 0 --')",
    'item_id IN (SELECT item_id AS `a"` FROM items)) OR ? > 0 --")',
]


async def _call(db: Path, condition: str, limit: int = 3) -> tuple[list[str] | None, str]:
    reply = await HardFilterTool(db, sql_condition=True).call_raw(
        {"condition": condition, "limit": limit}
    )
    ids = [h.item_id for h in reply.data.hits] if reply.data is not None else None
    return ids, reply.error or ""


@pytest.mark.parametrize("condition", ESCAPES)
async def test_a_quote_inside_brackets_or_backticks_cannot_escape_the_wrapper(
    film_db: Path, condition: str
) -> None:
    # Escaped, the query returned films 1, 2, 3 in rowid order (ORDER BY and LIMIT gone).
    assert await _call(film_db, condition) == (None, UNBALANCED)


@pytest.mark.parametrize(
    ("condition", "error"),
    [
        ('[a"] = 1 OR 1 --"', "refused: comments are not allowed in the condition"),
        ("`a'` = 1 /* '", "refused: comments are not allowed in the condition"),
        ('[a"] = 1; SELECT "', "refused: one condition only (';' would start a second "
         "statement)"),
        ("[a'] IN (DROP) OR [b']", "refused: the condition may only read items (found DROP)"),
        ("[title = 'Heat'", "refused: unclosed quote or parenthesis in the condition"),
        ("`title = 'Heat'", "refused: unclosed quote or parenthesis in the condition"),
    ],
)  # fmt: skip
def test_what_a_bracket_or_backtick_quote_hid_is_refused(condition: str, error: str) -> None:
    with pytest.raises(ToolInputError) as caught:
        check_condition(condition)
    assert str(caught.value) == error


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("[title] = 'Heat'", (["3", "4"], "")),  # both films named Heat, by popularity
        ("`year` > 2000", (["7", "2", "5"], "")),  # 2005 (20 users), 2001 (12), 2010 (8)
        ("[cast] LIKE '%Pacino%'", (["3"], "")),  # the column named cast, quoted by hand
        # Quoted, ';', '--' and ')' are a column's name: looked up inside the wrapper.
        ("[x;y] = 1", (None, "SQL error: no such column: x;y")),
        ("[a -- b)] = 1", (None, "SQL error: no such column: a -- b)")),
        ("\"[\" = '[' AND year > 2005", (["5"], "")),  # "[" not a column: SQLite's string
    ],
)
async def test_bracket_and_backtick_identifiers_run_inside_the_wrapper(
    film_db: Path, condition: str, expected: tuple[list[str] | None, str]
) -> None:
    assert await _call(film_db, condition) == expected
