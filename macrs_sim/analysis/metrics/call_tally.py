"""The cost tables, the token totals and the calls-per-turn counts in one pass over the calls.

`cost_table` groups a DataFrame of every call; at a million dialogues that frame is tens
of millions of rows. `CallTally` takes the calls one at a time, in the order stored, and
keeps one accumulator a group. Float columns are summed as pandas sums a group (Kahan
compensated, in row order), so the tables are the same to the last bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from macrs_sim.analysis.metrics.cost import COST_COLUMNS, SAMPLES_LABEL
from macrs_sim.config import Price
from macrs_sim.llm.pricing import PER

GROUPINGS: tuple[tuple[str, ...], ...] = (("system",), ("system", "role"), ("system", "turn"))


@dataclass(slots=True)
class _Sums:
    calls: int = 0
    errors: int = 0
    cached: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # [sum, compensation] pairs, as pandas' group_sum keeps them.
    latency: list[float] = field(default_factory=lambda: [0.0, 0.0])
    cost: list[float] = field(default_factory=lambda: [0.0, 0.0])


def _kahan(acc: list[float], value: float) -> None:
    y = value - acc[1]
    t = acc[0] + y
    acc[1] = t - acc[0] - y
    if acc[1] != acc[1]:  # NaN: pandas resets the compensation
        acc[1] = 0.0
    acc[0] = t


# system, role, turn, model, prompt_tokens, completion_tokens, latency_s, cached, ok,
# dialogue_id, error: as SQLite hands a row over when every cell holds the type
# LLMCallRecord declares (the last two are not summed).
PlainCall = tuple[str | None, str, int | None, str, int, int, float, int, int, object, object]


@dataclass(frozen=True)
class Call:
    """The columns of a call the tally reads (after the comparison's relabelling)."""

    dialogue_id: str | None
    system: str | None
    role: str
    turn: int | None
    model: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    cached: bool
    ok: bool


class CallTally:
    def __init__(self, prices: Mapping[str, Price] | None) -> None:
        self.prices = prices
        self.groups: dict[tuple[str, ...], dict[tuple[Any, ...], _Sums]] = {
            g: {} for g in GROUPINGS
        }
        self.n = 0
        self.turn_seen = self.turn_missing = False

    def add(self, call: Call) -> None:
        self.n += 1
        self.turn_seen |= call.turn is not None
        self.turn_missing |= call.turn is None
        cost = self._cost(call)
        system = SAMPLES_LABEL if call.system is None else call.system
        keys = {"system": system, "role": call.role, "turn": call.turn}
        for grouping, table in self.groups.items():
            sums = table.setdefault(tuple(keys[k] for k in grouping), _Sums())
            sums.calls += 1
            sums.errors += not call.ok
            sums.cached += call.cached
            sums.prompt_tokens += call.prompt_tokens
            sums.completion_tokens += call.completion_tokens
            _kahan(sums.latency, call.latency_s)
            _kahan(sums.cost, cost)

    def add_plain(self, rows: Iterable[PlainCall], names: Mapping[str, str]) -> None:
        """`add` of each row, relabelled by `names`, with the work per row cut to the bone:
        a million dialogues make tens of millions of calls."""
        by_system, by_role, by_turn = (self.groups[g] for g in GROUPINGS)
        prices = self.prices or {}
        for system, role, turn, model, prompt, completion, latency, cached, ok, _d, _e in rows:
            self.n += 1
            if turn is None:
                self.turn_missing = True
            else:
                self.turn_seen = True
            cost = 0.0
            if prices and not cached:
                price = prices.get(model)
                if price is not None:
                    cost = (prompt * price.prompt + completion * price.completion) / PER
            label = SAMPLES_LABEL if system is None else names.get(system, system)
            for table, key in ((by_system, (label,)), (by_role, (label, role)),
                               (by_turn, (label, turn))):  # fmt: skip
                sums = table.get(key)
                if sums is None:
                    sums = table[key] = _Sums()
                sums.calls += 1
                sums.errors += not ok
                sums.cached += cached
                sums.prompt_tokens += prompt
                sums.completion_tokens += completion
                _kahan(sums.latency, float(latency))
                _kahan(sums.cost, cost)

    def _cost(self, call: Call) -> float:
        if not self.prices or call.cached:
            return 0.0
        price = self.prices.get(call.model)
        prompt, completion = (price.prompt, price.completion) if price else (0.0, 0.0)
        return (call.prompt_tokens * prompt + call.completion_tokens * completion) / PER

    @property
    def prompt_tokens(self) -> int:
        return sum(s.prompt_tokens for s in self.groups[("system",)].values())

    @property
    def completion_tokens(self) -> int:
        return sum(s.completion_tokens for s in self.groups[("system",)].values())

    def table(self, by: Sequence[str], *, turns_only: bool = False) -> pd.DataFrame:
        """cost_table(calls, by, prices); `turns_only`: of the calls with a turn."""
        columns = [*COST_COLUMNS, "cost_usd"] if self.prices else COST_COLUMNS
        groups = self.groups[tuple(by)]
        rows = [
            (key, sums)
            for key, sums in groups.items()
            if not (turns_only and key[-1] is None and "turn" in by)
        ]
        if not rows:
            return pd.DataFrame(columns=[*by, *columns])
        data: dict[str, Any] = {
            name: self._key_column(name, [key[i] for key, _ in rows], turns_only)
            for i, name in enumerate(by)
        }
        data |= _sum_columns([sums for _, sums in rows])
        return pd.DataFrame(data)[[*by, *columns]]

    def _key_column(self, name: str, values: list[Any], turns_only: bool) -> Any:
        """As pandas types a group key: turn is int64, float64 beside a NaN, else objects."""
        if name != "turn":
            return values
        if not self.turn_seen:
            return pd.Series(values, dtype=object)
        if self.turn_missing:
            return [math.nan if v is None else float(v) for v in values]
        return values


def _sum_columns(rows: list[_Sums]) -> dict[str, Any]:
    calls = [s.calls for s in rows]
    latency = [s.latency[0] for s in rows]
    return {
        "calls": calls,
        "errors": [s.errors for s in rows],
        "cached": [s.cached for s in rows],
        "prompt_tokens": [s.prompt_tokens for s in rows],
        "completion_tokens": [s.completion_tokens for s in rows],
        "tokens": [s.prompt_tokens + s.completion_tokens for s in rows],
        "latency_s": latency,
        "mean_latency_s": [sum_ / n for sum_, n in zip(latency, calls, strict=True)],
        "cost_usd": [s.cost[0] for s in rows],
    }
