"""`item_info`: the catalog fields of items given by id or title.

The fields follow the catalog's schema (tools/schema.py): films keep theirs (genres,
director, cast, overview); another domain's are title, year, categories and its
attributes by column name (brand, price ...), then keywords, description, aka and
popularity on request. A single-valued attribute is shown as its value, a several-valued
one as a list, as the SQL tool's columns hold them.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from macrs_sim.protocol import Item, Record
from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.schema import FILM_SCHEMA, CatalogSchema, Column

InfoField = Literal[
    "title", "year", "genres", "director", "cast", "keywords", "overview", "aka", "popularity"
]
_DEFAULT_FIELDS: tuple[InfoField, ...] = ("title", "year", "genres", "director", "cast")
# Asked for by name only: long (overview, description) or rarely wanted.
_ON_REQUEST = ("keywords", "description", "aka", "popularity")


class ItemInfoArgs(BaseModel):
    text_field: ClassVar[str] = "items"
    items: ItemList = Field(
        min_length=1,
        max_length=50,
        description="Item ids or titles (a title without a year matches every film of that name).",
    )
    fields: list[InfoField] | None = Field(
        default=None, description="Fields to return; default title, year, genres, director, cast."
    )


@functools.cache
def _domain_args(defaults: tuple[str, ...], noun: str) -> type[ItemInfoArgs]:
    """ItemInfoArgs whose fields are a non-film catalog's."""
    names = Literal.__getitem__((*defaults, *_ON_REQUEST))  # a Literal of these names

    class DomainInfoArgs(ItemInfoArgs):
        items: ItemList = Field(
            min_length=1, max_length=50, description="Item ids or titles (a title without a "
            f"year matches every {noun} of that name).",
        )  # fmt: skip
        fields: list[names] | None = Field(  # type: ignore[valid-type]
            default=None, description=f"Fields to return; default {', '.join(defaults)}."
        )

    return DomainInfoArgs


class ItemInfo(Record):
    item_id: str
    fields: dict[str, Any]


class ItemInfoResult(Record):
    items: tuple[ItemInfo, ...]
    unknown: tuple[str, ...] = ()


def _attribute_value(item: Item, column: Column) -> Any:
    found = item.attribute(column.attribute or "")
    if column.json_list:
        return list(found)
    return found[0] if found else None


def _text(value: Any) -> str:
    if value is None or value == []:
        return "-"
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value).strip()


class ItemInfoTool(RecTool[ItemInfoArgs, ItemInfoResult]):
    def __init__(
        self,
        resolver: ItemResolver,
        popularity: dict[str, int],
        *,
        schema: CatalogSchema = FILM_SCHEMA,
        log: ToolCallLog | None = None,
        name: str = "item_info",
    ) -> None:
        self.columns = {c.name: c for c in schema.attribute_columns}
        if schema.film:
            args: type[ItemInfoArgs] = ItemInfoArgs
            self.defaults: tuple[str, ...] = _DEFAULT_FIELDS
            description = "Look up facts about items (by id or title): year, genres, people, plot."
        else:
            self.defaults = ("title", "year", "categories", *self.columns)
            args = _domain_args(self.defaults, schema.noun)
            facts = ", ".join(["year", "categories", *self.columns, "description"])
            description = f"Look up facts about items (by id or title): {facts}."
        super().__init__(args, name, description, log)
        self.resolver = resolver
        self.popularity = popularity
        self.film = schema.film

    def _value(self, item: Item, field: str) -> Any:
        if field == "popularity":
            return self.popularity.get(item.item_id, 0)
        if not self.film and field in self.columns:
            return _attribute_value(item, self.columns[field])
        value = getattr(item, field)  # an Item field or (films) property
        return list(value) if isinstance(value, tuple) else value

    def compute(self, args: ItemInfoArgs) -> ItemInfoResult:
        ids, unknown = self.resolver.resolve(args.items)
        if not ids:
            raise ToolInputError("no item matched: " + "; ".join(unknown))
        fields: list[str] = list(args.fields or self.defaults)
        catalog = self.resolver.catalog
        infos = [
            ItemInfo(item_id=i, fields={f: self._value(catalog[i], f) for f in fields}) for i in ids
        ]
        return ItemInfoResult(items=tuple(infos), unknown=tuple(unknown))

    def render(self, result: ItemInfoResult) -> str:
        lines = []
        for info in result.items:
            cells = [f"{name}: {_text(value)}" for name, value in info.fields.items()]
            lines.append(f"{info.item_id} | " + " | ".join(cells))
        if result.unknown:
            lines.append("Not in the catalog: " + "; ".join(result.unknown))
        return "\n".join(lines)
