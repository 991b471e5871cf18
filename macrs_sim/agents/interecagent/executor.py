"""Runs plan steps over the candidate bus with the toolkit's tools; never raises.

Each step becomes a `TrackRecord` (tool, input, output summary, candidates before and
after, error) and, through the toolkit tools or `_log_call`, a `ToolCallRecord`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from macrs_sim.agents.interecagent import inputs as ti
from macrs_sim.agents.interecagent.bus import CandidateBus, Tracker, TrackRecord, summary
from macrs_sim.agents.interecagent.memory import ProfileMemory
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.llm.context import current_call
from macrs_sim.protocol import ToolCallRecord
from macrs_sim.tools import RecTool, ToolCallLog, ToolReply, ToolResources
from macrs_sim.tools.args import validation_message
from macrs_sim.tools.bm25 import Bm25SearchTool, SearchArgs
from macrs_sim.tools.hard import HardConditionArgs, HardFilterTool, HardHits
from macrs_sim.tools.items import ItemHits
from macrs_sim.tools.rank import RankArgs, RankTool
from macrs_sim.tools.soft import SimilarArgs, SimilarItemsTool, TextSimilarityTool
from macrs_sim.tools.sql import SqlArgs, SqlQueryTool

# How many candidates a narrowing step names in its output.
PREVIEW = 10


@dataclass(frozen=True)
class BusSettings:
    fetch_k: int = 5
    hard_limit: int = 1000
    soft_fraction: float = 0.05
    # The random sample a hard condition keeps when more than `hard_limit` items meet it.
    seed: int = 0
    # The most items a turn may show (protocol.max_items_per_turn): a fetch shows no more.
    max_items: int | None = None


@dataclass
class StepResult:
    ok: bool
    text: str
    error: str | None = None
    note: str | None = None
    shown: list[str] = field(default_factory=list)


class StepFailed(Exception):
    """A step the executor refuses or a tool reported an error; the message goes back."""


class BusExecutor:
    def __init__(
        self,
        res: ToolResources,
        memory: ProfileMemory,
        *,
        log: ToolCallLog | None = None,
        settings: BusSettings = BusSettings(),
    ) -> None:
        self.res = res
        self.memory = memory
        self.log = log
        self.settings = settings
        catalog = res.resolver.catalog
        order = {item.item_id: i for i, item in enumerate(catalog)}
        ids = [item.item_id for item in catalog]
        # The bus starts with every item, most popular first (ties: catalog order).
        self.all_items = sorted(ids, key=lambda i: (-res.popularity.get(i, 0), order[i]))
        # The toolkit's tools record nothing themselves: `_call` records each call with the
        # step's input as the model wrote it, not the bus-sized argument lists built here.
        self.sql = SqlQueryTool(res.database)
        self.hard = HardFilterTool(res.database, sql_condition=True)
        self.rank = RankTool(res.resolver, dict(res.popularity), scorer=res.scorer,
                             similarity=res.text)  # fmt: skip
        self.similar = SimilarItemsTool(res.neighbours, res.resolver) if res.neighbours else None
        self.text = TextSimilarityTool(res.text, res.resolver) if res.text else None
        self.bm25 = Bm25SearchTool(res.bm25, res.resolver) if res.bm25 else None
        self._step_input: dict[str, Any] | str = {}
        self._genres = {g.casefold(): g for item in catalog for g in item.genres}
        self.genres = sorted(set(self._genres.values()))
        self._toolkit_calls = 0
        self._rng = random.Random(settings.seed)
        self._handlers: dict[str, Callable[[CandidateBus, dict[str, Any]], Any]] = {
            ti.STORE: self._store, ti.QUERY: self._query, ti.HARD: self._hard,
            ti.SOFT: self._soft, ti.RANK: self._rank, ti.FETCH: self._fetch,
        }  # fmt: skip

    def new_bus(self) -> CandidateBus:
        return CandidateBus(self.all_items)

    async def run_plan(self, steps: Sequence[PlanStep], bus: CandidateBus) -> Tracker:
        tracker = Tracker()
        for step in steps:
            await self.run_step(step, bus, tracker)
        return tracker

    async def run_step(self, step: PlanStep, bus: CandidateBus, tracker: Tracker) -> StepResult:
        before = len(bus)
        name = ti.tool_name(step.tool)
        if name is None:
            known = ", ".join(ti.TOOL_NAMES)
            result = StepResult(False, "", error=f"unknown tool {step.tool!r}; tools: {known}")
            self._log_call(step.tool, step.input, result.ok, result.error)
        else:
            result = await self._dispatch(name, step, bus)
        text = result.text if result.ok else f"Error: {result.error}"
        rec = TrackRecord(
            step=len(tracker.records) + 1, tool=name or step.tool, input=step.input,
            ok=result.ok, output=summary(text), candidates_before=before,
            candidates_after=len(bus), error=result.error, note=result.note,
        )  # fmt: skip
        tracker.add(rec, text)
        if result.shown:
            tracker.shown = list(result.shown)
        return result

    async def _dispatch(self, name: str, step: PlanStep, bus: CandidateBus) -> StepResult:
        calls, self._step_input = self._toolkit_calls, step.input
        try:
            out = self._handlers[name](bus, _validated(name, step.input))
            result: StepResult = await out
        except StepFailed as err:
            result = StepResult(False, "", error=str(err))
        if self._toolkit_calls == calls:  # no toolkit tool recorded this step: record it here
            self._log_call(name, step.input, result.ok, result.error, len(result.text))
        return result

    async def _call(self, tool: RecTool[Any, Any], args: BaseModel) -> ToolReply[Any]:
        """A toolkit tool with arguments built here (bounds beyond the tool's own checks)."""
        self._toolkit_calls += 1
        start = time.perf_counter()
        reply = await tool.call(args)
        elapsed = time.perf_counter() - start
        self._log_call(tool.name, self._step_input, reply.ok, reply.error, len(reply.text), elapsed)
        return reply

    async def _store(self, bus: CandidateBus, args: dict[str, Any]) -> StepResult:
        found, unknown = self.res.resolver.resolve(ti.StoreInput(**args).items)
        if not found:
            raise StepFailed("no item matched: " + "; ".join(unknown))
        bus.store(found)
        note = ("not in the catalog: " + "; ".join(unknown)) if unknown else None
        return StepResult(True, self._preview(bus), note=note)

    async def _query(self, bus: CandidateBus, args: dict[str, Any]) -> StepResult:
        reply = await self._call(self.sql, SqlArgs(sql=ti.QueryInput(**args).sql))
        if not reply.ok:
            return StepResult(False, "", error=reply.error)
        return StepResult(True, reply.text)

    async def _hard(self, bus: CandidateBus, args: dict[str, Any]) -> StepResult:
        base, note = self._known_genres(HardConditionArgs.model_validate(args))
        # The condition reads the bus: earlier steps' candidates (the paper's candidate bus).
        within = None if bus.full else list(bus.items)
        if within == []:
            return StepResult(True, self._preview(bus), note="the bus was already empty")
        # Every match comes back; more than `hard_limit` keeps a random sample of them
        # (RecAI's SQL tool), or the first ones when the query orders them (ORDER BY).
        query = base.model_copy(update={"within": within, "limit": len(self.all_items)})
        reply = await self._call(self.hard, query)
        hits = _hits(reply.data, reply.error)
        found, notes = _ids(hits), [note] if note else []
        if isinstance(hits, HardHits):
            found, cut = self._cut(found, hits.query_order)
            rewritten = [f"the condition was run as {hits.rewritten}"] if hits.rewritten else []
            notes += rewritten + cut
        bus.keep(found, order_by_kept=isinstance(hits, HardHits) and hits.query_order)
        return StepResult(True, self._preview(bus), note="; ".join(notes) or None)

    def _cut(self, found: list[str], query_order: bool) -> tuple[list[str], list[str]]:
        limit = self.settings.hard_limit
        if len(found) <= limit:
            return found, []
        if query_order:
            return found[:limit], [f"{len(found)} items met the conditions: kept the first "
                                   f"{limit} in the query's order"]  # fmt: skip
        kept = self._rng.sample(found, limit)
        return kept, [f"{len(found)} items met the conditions: kept a random {limit}"]

    def _known_genres(self, args: HardConditionArgs) -> tuple[HardConditionArgs, str | None]:
        """Small models write "none" or a person as a genre: such entries are dropped with a
        note, unless nothing else is asked (then the tool's own error goes back)."""
        unknown = [g for g in args.genres + args.exclude_genres if g.casefold() not in self._genres]
        if not unknown:
            return args, None

        def known(values: list[str]) -> list[str]:
            return [self._genres[g.casefold()] for g in values if g.casefold() in self._genres]

        update = {"genres": known(args.genres), "exclude_genres": known(args.exclude_genres)}
        kept = args.model_copy(update=update)
        if kept.model_dump(exclude_defaults=True) == {}:
            return args, None
        return kept, "ignored unknown genre(s): " + ", ".join(map(repr, unknown))

    async def _soft(self, bus: CandidateBus, args: dict[str, Any]) -> StepResult:
        soft = ti.SoftInput(**args)
        k = max(1, math.ceil(self.settings.soft_fraction * len(self.all_items)))
        seeds = soft.items or ([] if soft.description else self.memory.likes())
        if seeds and self.similar is not None:
            reply = await self._call(self.similar, SimilarArgs.model_construct(items=seeds, k=k))
        elif soft.description or seeds:
            query = soft.description or "; ".join(seeds)
            tool = self.text or self.bm25
            if tool is None:
                raise StepFailed("soft retrieval is not available: no item-CF model or text index")
            reply = await self._call(
                tool, SearchArgs.model_construct(query=query, k=k, within=None)
            )
        else:
            raise StepFailed("soft_filter needs `items` (liked items) or a `description`")
        hits = _hits(reply.data, reply.error).hits
        # The scores are saved for a later `rank by similarity` (RecAI's buffer).
        bus.keep([h.item_id for h in hits], order_by_kept=True)
        bus.similarity = {h.item_id: h.score or 0.0 for h in hits if h.item_id in set(bus.items)}
        cf = self.similar is not None and reply.tool == self.similar.name
        named = self.res.resolver.resolve(seeds)[0] if cf else []
        notes = ["no overlap with the bus: it is now empty"] if not bus.items else []
        if named:
            notes.append("the seed items are not candidates: " + "; ".join(map(self.title, named)))
        return StepResult(True, self._preview(bus), note="; ".join(notes) or None)

    async def _rank(self, bus: CandidateBus, args: dict[str, Any]) -> StepResult:
        rank = ti.RankInput(**args)
        bus.drop(self._excluded())
        if not bus.items:
            return StepResult(True, self._preview(bus), note="nothing left to rank")
        history = (
            list(self.memory.long_term_likes) + self.res.resolver.resolve(self.memory.likes())[0]
        )
        by, note = _rank_schema(rank.by, self.res.scorer is not None, history, bus.similarity)
        if by == "similarity":  # the scores the soft retrieval saved (paper, RecAI)
            order = {i: n for n, i in enumerate(bus.items)}
            ranked = sorted(bus.items, key=lambda i: (-bus.similarity.get(i, 0.0), order[i]))
            bus.keep(ranked, order_by_kept=True)
            return StepResult(True, self._preview(bus), note=note)
        rank_args = RankArgs.model_construct(
            candidates=list(bus.items), by=by, history=history, query=None, k=len(bus)
        )
        reply = await self._call(self.rank, rank_args)
        bus.keep(_ids(_hits(reply.data, reply.error)), order_by_kept=True)
        return StepResult(True, self._preview(bus), note=note)

    async def _fetch(self, bus: CandidateBus, args: dict[str, Any]) -> StepResult:
        k = ti.FetchInput(**args).k or self.settings.fetch_k
        k = min(k, self.settings.max_items or k)
        excluded = set(self._excluded())
        shown = [i for i in bus.items if i not in excluded][:k]
        if not shown:
            return StepResult(True, "No candidate is left to show.")
        lines = [f"{n}. {self.title(i)}" for n, i in enumerate(shown, 1)]
        return StepResult(True, "\n".join(lines), shown=shown)

    def title(self, item_id: str) -> str:
        """The display title with its spacing tidied (catalog titles may end in a space)."""
        return " ".join(self.res.resolver.catalog[item_id].display_title.split())

    def top(self, bus: CandidateBus, k: int, given: Sequence[str] = ()) -> list[str]:
        """The first k candidates not excluded and not in `given` (the fallback list)."""
        excluded = set(self._excluded()) | set(given)
        return [i for i in bus.items if i not in excluded][:k]

    def _excluded(self) -> list[str]:
        """Disliked, already shown and already seen items (the long-term history)."""
        disliked = self.res.resolver.resolve(self.memory.dislikes())[0]
        return disliked + list(self.memory.shown) + list(self.memory.long_term_likes)

    def _preview(self, bus: CandidateBus) -> str:
        names = "; ".join(self.title(i) for i in bus.items[:PREVIEW])
        more = f" (and {len(bus) - PREVIEW} more)" if len(bus) > PREVIEW else ""
        return f"{len(bus)} candidates: {names}{more}" if bus.items else "0 candidates."

    def _log_call(
        self,
        tool: str,
        given: dict[str, Any] | str,
        ok: bool,
        error: str | None,
        chars: int = 0,
        latency: float = 0.0,
    ) -> None:
        if self.log is None:
            return
        ctx = current_call()
        self.log.record(ToolCallRecord(
            dialogue_id=ctx.dialogue_id, system=ctx.system, role=ctx.role, turn=ctx.turn,
            tool=tool, input=given if isinstance(given, dict) else {"text": given},
            output_chars=chars if ok else len(f"Error: {error}"), latency_s=latency, ok=ok,
            error=error,
        ))  # fmt: skip


_MODELS: dict[str, type[BaseModel]] = {
    ti.STORE: ti.StoreInput, ti.QUERY: ti.QueryInput, ti.HARD: HardConditionArgs,
    ti.SOFT: ti.SoftInput, ti.RANK: ti.RankInput, ti.FETCH: ti.FetchInput,
}  # fmt: skip


def _validated(name: str, raw: dict[str, Any] | str) -> dict[str, Any]:
    """The input as arguments, checked against the tool's input model (one-line errors)."""
    model = _MODELS[name]
    given = ti.input_dict(raw, model)
    if name == ti.HARD:  # the executor sets these from the bus
        given = {k: v for k, v in given.items() if k not in ("within", "limit", "order_by")}
    try:
        model.model_validate(given)
    except ValidationError as err:
        raise StepFailed(validation_message(err)) from None
    return given


def _rank_schema(
    by: str, has_model: bool, history: list[str], similarity: dict[str, float]
) -> tuple[str, str | None]:
    """The ranking actually used, and why it differs from the asked one (RecAI's switches)."""
    if by == "preference" and not has_model:
        return "popularity", "no preference model: ranked by popularity"
    if by == "preference" and not history:
        return "popularity", "nothing liked yet: ranked by popularity"
    if by == "similarity" and not similarity:
        return "popularity", "no similarity scores (no soft retrieval ran): ranked by popularity"
    return by, None


def _hits(data: ItemHits | None, error: str | None) -> ItemHits:
    if data is None:
        raise StepFailed(error or "the tool returned nothing")
    return data


def _ids(hits: ItemHits) -> list[str]:
    return [h.item_id for h in hits.hits]
