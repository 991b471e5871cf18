"""`item_info` and the id/title resolver (remakes share a title)."""

from __future__ import annotations

from macrs_sim.data.catalog import Catalog
from macrs_sim.tools.info import ItemInfoTool
from macrs_sim.tools.items import ItemResolver


def test_resolver_ids_titles_years_and_remakes(films: Catalog) -> None:
    r = ItemResolver(films)
    assert r.resolve_one("3") == ["3"]
    assert r.resolve_one("Heat") == ["3", "4"]  # both films of that name, catalog order
    assert r.resolve_one("Heat (1986)") == ["4"]
    assert r.resolve_one("  laugh factory") == ["5"]  # trailing space in the catalog title
    assert r.resolve_one("Star Voyag") == ["1"]  # fuzzy
    assert r.resolve_one("Nothing Like It") == []
    assert r.resolve(["Heat", "3", "Zzz", "7"]) == (["3", "4", "7"], ["Zzz"])


async def test_fields_of_items_by_title(films: Catalog, popularity: dict[str, int]) -> None:
    tool = ItemInfoTool(ItemResolver(films), popularity)
    reply = await tool.call_raw(
        {"items": ["Heat (1995)", "99"], "fields": ["year", "cast", "popularity"]}
    )
    assert reply.ok and reply.data is not None
    assert [i.fields for i in reply.data.items] == [
        {"year": 1995, "cast": ["Al Pacino", "Robert De Niro"], "popularity": 25}
    ]
    assert reply.text == (
        "3 | year: 1995 | cast: Al Pacino, Robert De Niro | popularity: 25\nNot in the catalog: 99"
    )


async def test_text_path_splits_on_semicolons(films: Catalog, popularity: dict[str, int]) -> None:
    tool = ItemInfoTool(ItemResolver(films), popularity)
    text = await tool.run_text("Quiet Rooms; Galaxy Kids")
    assert text == (
        "8 | title: Quiet Rooms | year: - | genres: Drama | director: Nora Still | cast: -\n"
        "7 | title: Galaxy Kids | year: 2005 | genres: Animation, Comedy, Sci-Fi | "
        "director: Leo Bright | cast: Mia Small"
    )


async def test_nothing_found_is_an_error(films: Catalog, popularity: dict[str, int]) -> None:
    text = await ItemInfoTool(ItemResolver(films), popularity).run_text("Zzz Qqq")
    assert text == "Error: no item matched: Zzz Qqq"
