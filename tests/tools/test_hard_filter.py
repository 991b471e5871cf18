"""`filter_items`: genre AND year AND popularity conditions, counted by hand on the fixture."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from macrs_sim.tools.hard import HardFilterTool


async def _ids(db: Path, args: dict[str, Any]) -> list[str]:
    reply = await HardFilterTool(db).call_raw(args)
    assert reply.ok, reply.text
    assert reply.data is not None
    return [h.item_id for h in reply.data.hits]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # Comedies: 2 (2001, 12 users), 5 (2010, 8), 7 (2005, 20); 10+ users leaves 7 and 2.
        ({"genres": ["comedy"], "year_min": 2000, "year_max": 2010, "min_interactions": 10},
         ["7", "2"]),
        # Two genres at once: only Galaxy Kids is both Comedy and Sci-Fi.
        ({"genres": ["Comedy", "Sci-Fi"]}, ["7"]),
        # Thrillers but not Action: the 1995 Heat, not the 1986 one.
        ({"genres": ["Thriller"], "exclude_genres": ["Action"]}, ["3"]),
        # Year bounds are inclusive; the film without a year never passes a year bound.
        ({"year_min": 1995, "year_max": 1999}, ["3", "6"]),
        ({"max_interactions": 3}, ["4", "8"]),
        ({"genres": ["Thriller"], "order_by": "year"}, ["3", "4"]),
        ({"within": ["4", "6", "nope"], "min_interactions": 1}, ["6", "4"]),
        ({"genres": ["Horror"], "year_min": 2000}, []),
        ({"limit": 2}, ["1", "3"]),
    ],
)  # fmt: skip
async def test_conditions(film_db: Path, args: dict[str, Any], expected: list[str]) -> None:
    assert await _ids(film_db, args) == expected


async def test_text_lists_ids_and_titles(film_db: Path) -> None:
    text = await HardFilterTool(film_db).run_text('{"genres": "Comedy", "year_min": 2006}')
    assert text == "5 | Laugh Factory (2010)"


async def test_unknown_genre_lists_the_known_ones(film_db: Path) -> None:
    text = await HardFilterTool(film_db).run_text({"genres": ["Scifi"]})
    assert text == (
        "Error: unknown genre 'Scifi'; known: Action, Adventure, Animation, Comedy, Crime, "
        "Drama, Horror, Romance, Sci-Fi, Thriller"
    )


async def test_a_genre_cannot_inject_sql(film_db: Path) -> None:
    reply = await HardFilterTool(film_db).call_raw({"genres": ["x' OR 1=1 --"]})
    assert not reply.ok and reply.error is not None and reply.error.startswith("unknown genre")


async def test_no_match_is_said(film_db: Path) -> None:
    text = await HardFilterTool(film_db).run_text({"genres": ["Horror"], "year_min": 2000})
    assert text == "No item meets these conditions."


async def test_plain_text_needs_json_here(film_db: Path) -> None:
    text = await HardFilterTool(film_db).run_text("comedies from the nineties")
    assert text == "Error: this tool takes a JSON object of arguments"
