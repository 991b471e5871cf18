"""What the SQL tools' catalog database holds, in one place: the tables as written, as shown
to models, and where the hard filter finds an item's categories.

Films keep the prepared MovieLens schema (genres, director, "cast", overview, item_genres)
that InteRecAgent's and RecMind's prompts were written against. Any other domain gets
items(item_id, title, year, categories, one column per attribute its catalog has,
keywords, description, aka, n_interactions) and item_categories(item_id, category). An
attribute's column is typed by its values across the catalog: REAL when every value is
one number (so `price < 20` compares numbers, not text), TEXT when no item has two, a JSON
list in TEXT when some item has several.

The schema travels inside the database (meta `catalog_schema`, tools/database.py), so a
tool given only the file describes what is really in it.
"""

from __future__ import annotations

import functools
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError

from macrs_sim.data.demo_words import catalog_words
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import DataError
from macrs_sim.protocol import Record

SCHEMA_KEY = "catalog_schema"
FILM_CATEGORY_TABLE = "item_genres"  # films' category table; every other layout's: item_categories
_INTERACTIONS = "interactions(user_id TEXT, item_id TEXT, rating REAL, timestamp INTEGER)"


def is_film(domain: Domain) -> bool:
    """Whether the domain's items take films' layout (`Domain.layout`), whatever its name."""
    return domain.layout == "films"


@functools.cache
def sql_name(name: str) -> str:
    """`name` as a query writes it: bare, or quoted where SQLite reads the bare word as a
    keyword (`cast`). Asked of SQLite itself, so no keyword list goes stale."""
    with closing(sqlite3.connect(":memory:")) as conn:
        try:
            conn.execute(f'SELECT {name} FROM (SELECT 1 AS "{name}")')
        except sqlite3.Error:
            return f'"{name}"'
    return name


# Names from a database's meta go into SQL text: only plain identifiers are accepted.
_IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_]*$"


class Column(Record):
    name: str = Field(pattern=_IDENTIFIER)
    type: Literal["TEXT", "INTEGER", "REAL"]
    json_list: bool = False
    # The item attribute it holds; None for the columns every catalog has.
    attribute: str | None = None

    def text(self) -> str:
        kind = f"{self.type} JSON list" if self.json_list else self.type
        return f"{sql_name(self.name)} {kind}"


class CatalogSchema(Record):
    domain: str  # the domain's name: "movies", "products"
    noun: str  # what an item is called: "movie", "product"
    category_label: str  # what a category is called: "genre", "cuisine"
    columns: tuple[Column, ...]  # of the items table, in order
    category_table: str = Field(pattern=_IDENTIFIER)  # item_genres (films), item_categories
    category_column: str = Field(pattern=_IDENTIFIER)  # genre (films) or category
    # A condition over items that names real columns (the hard filter's example).
    example: str

    @property
    def film(self) -> bool:
        """Films' layout (their columns and item_genres), whatever the domain's name."""
        return self.category_table == FILM_CATEGORY_TABLE

    @property
    def attribute_columns(self) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if c.attribute is not None)

    def tables(self) -> dict[str, str]:
        """Each table as models are shown it: `name(column TYPE, ...)`."""
        items = ", ".join(c.text() for c in self.columns)
        categories = f"{self.category_table}(item_id TEXT, {self.category_column} TEXT)"
        return {"items": f"items({items})", self.category_table: categories,
                "interactions": _INTERACTIONS}  # fmt: skip

    def catalog_tables(self) -> list[str]:
        """The tables a system may read (items and the category table), as shown."""
        tables = self.tables()
        return [tables["items"], tables[self.category_table]]


def _fixed(categories: str, description: str, *middle: Column) -> tuple[Column, ...]:
    return (
        Column(name="item_id", type="TEXT"), Column(name="title", type="TEXT"),
        Column(name="year", type="INTEGER"), Column(name=categories, type="TEXT", json_list=True),
        *middle, Column(name="keywords", type="TEXT", json_list=True),
        Column(name=description, type="TEXT"), Column(name="aka", type="TEXT", json_list=True),
        Column(name="n_interactions", type="INTEGER"),
    )  # fmt: skip


FILM_SCHEMA = CatalogSchema(
    domain=MOVIES.name,
    noun=MOVIES.noun,
    category_label=MOVIES.category_label,
    columns=_fixed(
        "genres",
        "overview",
        Column(name="director", type="TEXT", attribute="director"),
        Column(name="cast", type="TEXT", json_list=True, attribute="cast"),
    ),  # fmt: skip
    category_table=FILM_CATEGORY_TABLE,
    category_column="genre",
    example="director LIKE '%Mann%' AND year > 1990",
)


def film_schema(domain: Domain) -> CatalogSchema:
    """Films' schema in a film-layout domain's words (films' own for films)."""
    words = {"domain": domain.name, "noun": domain.noun, "category_label": domain.category_label}
    return FILM_SCHEMA.model_copy(update=words)


# The columns of a non-film items table besides its attributes (an attribute named like
# one of them gets a suffix).
FIXED_COLUMNS = frozenset(c.name for c in _fixed("categories", "description"))


def domain_schema(domain: Domain, columns: tuple[Column, ...], example: str) -> CatalogSchema:
    """A non-film catalog's schema with these attribute columns."""
    return CatalogSchema(
        domain=domain.name, noun=domain.noun, category_label=domain.category_label,
        columns=_fixed("categories", "description", *columns), category_table="item_categories",
        category_column="category", example=example,
    )  # fmt: skip


def prompt_words(schema: CatalogSchema) -> dict[str, str]:
    """The catalog's columns as the tool text names them (interecagent/tools.txt:
    $info_columns, $condition_example ...), to fill before the domain's words
    (PromptLibrary.for_catalog). Films: none, their domain's words are their columns."""
    if schema.film:
        return {}
    columns = schema.attribute_columns
    number = next((c.name for c in columns if c.type == "REAL"), "year")
    return catalog_words([sql_name(c.name) for c in columns], sql_name(number), schema.example)


def read_schema(path: Path) -> CatalogSchema:
    """The schema a catalog database says it has; films for one that says nothing (a
    prepared MovieLens database, a copy written before schemas were kept, or a file not
    there yet, whose queries fail on their own)."""
    try:
        stat = path.stat()
    except OSError:
        return FILM_SCHEMA
    return _read(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _read(path: str, mtime_ns: int, size: int) -> CatalogSchema:
    """Cached by the file's identity: tools are made per dialogue, the file once."""
    uri = f"{Path(path).as_uri()}?mode=ro"
    try:
        with closing(sqlite3.connect(uri, uri=True)) as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = ?", (SCHEMA_KEY,)).fetchone()
    except sqlite3.Error:
        return FILM_SCHEMA
    if row is None:
        return FILM_SCHEMA
    try:
        return CatalogSchema.model_validate_json(row[0])
    except ValidationError:
        raise DataError(
            f"{path}: its catalog schema is not valid (names must be plain "
            "identifiers); expected a catalog database macrs-sim wrote"
        ) from None
