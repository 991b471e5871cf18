"""`item_info`: the catalog fields of items given by id or title."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from macrs_sim.protocol import Item, Record
from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.log import ToolCallLog

InfoField = Literal[
    "title", "year", "genres", "director", "cast", "keywords", "overview", "aka", "popularity"
]
_DEFAULT_FIELDS: tuple[InfoField, ...] = ("title", "year", "genres", "director", "cast")


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


class ItemInfo(Record):
    item_id: str
    fields: dict[str, Any]


class ItemInfoResult(Record):
    items: tuple[ItemInfo, ...]
    unknown: tuple[str, ...] = ()


def _value(item: Item, field: str, popularity: dict[str, int]) -> Any:
    if field == "popularity":
        return popularity.get(item.item_id, 0)
    value = getattr(item, field)
    return list(value) if isinstance(value, tuple) else value


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
        log: ToolCallLog | None = None,
        name: str = "item_info",
    ) -> None:
        description = "Look up facts about items (by id or title): year, genres, people, plot."
        super().__init__(ItemInfoArgs, name, description, log)
        self.resolver = resolver
        self.popularity = popularity

    def compute(self, args: ItemInfoArgs) -> ItemInfoResult:
        ids, unknown = self.resolver.resolve(args.items)
        if not ids:
            raise ToolInputError("no item matched: " + "; ".join(unknown))
        fields = args.fields or list(_DEFAULT_FIELDS)
        catalog = self.resolver.catalog
        infos = [
            ItemInfo(item_id=i, fields={f: _value(catalog[i], f, self.popularity) for f in fields})
            for i in ids
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
