"""The demo's synthetic users (data/users.py): the draw is the catalog's and the seed's, and a
process that draws the same again gets the same interactions without drawing them again."""

from __future__ import annotations

import pytest

from macrs_sim.data import users
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.users import synthesize_interactions
from macrs_sim.protocol import Item

GENRES = ("Action", "Comedy", "Drama")


def _catalog(group_by: int = 1) -> Catalog:
    """12 films over three genres: in turn (group_by 1), or four at a time (4)."""
    return Catalog(
        [
            Item.model_validate(
                {"item_id": f"i{n}", "title": f"Film {n}", "genres": (GENRES[n // group_by % 3],)}
            )
            for n in range(12)
        ]
    )


def test_a_second_draw_is_the_first_without_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = _catalog()
    first = synthesize_interactions(catalog, n_users=5, min_len=3, max_len=6, seed=7)
    # 5 users of 3 to 6 items each, every item once a user, in steps 0, 1, 2, ...
    assert {r.user_id for r in first} == {f"u{u:04d}" for u in range(5)}
    for u in range(5):
        mine = [r for r in first if r.user_id == f"u{u:04d}"]
        assert 3 <= len(mine) <= 6 and len({r.item_id for r in mine}) == len(mine)
        assert [r.timestamp for r in mine] == list(range(len(mine)))

    def no_drawing(*args: object, **kwargs: object) -> list[users.Interaction]:
        raise AssertionError("drawn again")

    monkeypatch.setattr(users, "_draw", no_drawing)
    again = synthesize_interactions(catalog, n_users=5, min_len=3, max_len=6, seed=7)
    assert again == first and again is not first  # a list of its own to change
    again.clear()
    assert synthesize_interactions(catalog, n_users=5, min_len=3, max_len=6, seed=7) == first


def test_another_seed_genres_or_size_is_another_draw() -> None:
    catalog = _catalog()
    base = synthesize_interactions(catalog, n_users=5, min_len=3, max_len=6, seed=7)
    assert synthesize_interactions(catalog, n_users=5, min_len=3, max_len=6, seed=8) != base
    assert synthesize_interactions(catalog, n_users=6, min_len=3, max_len=6, seed=7) != base
    # The same ids with other genres: users follow genres, so the draw is not reused.
    regrouped = _catalog(group_by=4)
    fresh = users._draw(regrouped, n_users=5, min_len=3, max_len=6, seed=7)
    assert synthesize_interactions(regrouped, n_users=5, min_len=3, max_len=6, seed=7) == fresh
    assert fresh != base
