"""A system reached over HTTP: each turn POSTs the dialogue state as JSON, gets the turn back.

Requests (JSON): `{"request": "respond", "system": NAME, "dialogue": DialogueState,
"history": [item ids]}` and `{"request": "final_list", ..., "k": K, "given": [ItemRef]}`.
Replies: `{"act": ..., "text": ..., "items": [{"title": ..., "item_id": ...}]}` (item_id
optional: without it the dialogue loop grounds the title) and `{"items": [...]}`.
Limits, redirects and which failures cost the dialogue and which leave it unfinished (an
outage: no connection, 5xx, 429): transport.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.http_crs.options import HTTPSystemOptions
from macrs_sim.agents.http_crs.transport import HTTPSystemError, Poster
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn

MAX_ITEMS = 1000
R = TypeVar("R", bound=BaseModel)


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str
    item_id: str | None = None


class TurnReply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    act: str = Field(min_length=1)
    text: str
    items: list[_Item] = Field(default_factory=list, max_length=MAX_ITEMS)
    explain: dict[str, Any] = Field(default_factory=dict)


class ListReply(BaseModel):
    model_config = ConfigDict(extra="forbid")
    items: list[_Item] = Field(max_length=MAX_ITEMS)


def _refs(items: Sequence[_Item]) -> tuple[ItemRef, ...]:
    return tuple(ItemRef(title=i.title, item_id=i.item_id) for i in items)


class HTTPRecommender:
    def __init__(self, options: HTTPSystemOptions, ctx: SystemContext) -> None:
        self.name = ctx.name
        self._poster = Poster(
            options.url, timeout_s=options.timeout_s, max_reply_bytes=options.max_reply_bytes
        )
        self._history = list(ctx.history)

    async def _post(self, body: dict[str, Any], reply: type[R]) -> R:
        data = await self._poster.post({**body, "system": self.name, "history": self._history})
        try:
            return reply.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or "reply"
            where = self._poster.where
            raise HTTPSystemError(f"{where}: bad reply: {loc}: {first['msg']}") from None

    async def respond(self, state: DialogueState) -> SystemTurn:
        body = {"request": "respond", "dialogue": state.model_dump(mode="json")}
        out = await self._post(body, TurnReply)
        return SystemTurn(act=out.act, text=out.text, items=_refs(out.items), explain=out.explain)

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        body = {
            "request": "final_list",
            "dialogue": state.model_dump(mode="json"),
            "k": k,
            "given": [g.model_dump(mode="json") for g in given],
        }
        return list(_refs((await self._post(body, ListReply)).items[:k]))

    async def close(self) -> None:
        await self._poster.close()


def build(options: HTTPSystemOptions, ctx: SystemContext) -> HTTPRecommender:
    return HTTPRecommender(options, ctx)
