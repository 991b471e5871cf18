"""Cost of a run: LLM calls, tokens and latency per system, role and turn.

Calls made while preparing samples (target profiles, openings) belong to no
system; they are listed as "(samples)" so the totals add up. Given the run's
prices, the tables get a `cost_usd` column (cached calls and unpriced models: 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.config import Price
from macrs_sim.llm.pricing import PER

SAMPLES_LABEL = "(samples)"
COST_COLUMNS = [
    "calls",
    "errors",
    "cached",
    "prompt_tokens",
    "completion_tokens",
    "tokens",
    "latency_s",
    "mean_latency_s",
]


def run_prices(scenarios: Iterable[Mapping[str, Any]]) -> dict[str, Price] | None:
    """The prices of the runs' scenarios (a later run's price for a model wins); None if none."""
    merged: dict[str, Any] = {}
    for scenario in scenarios:
        merged.update(scenario.get("campaign", {}).get("prices", {}))
    return {model: Price.model_validate(p) for model, p in merged.items()} or None


def _call_costs(frame: pd.DataFrame, prices: Mapping[str, Price]) -> pd.Series:
    prompt = frame["model"].map(lambda m: prices[m].prompt if m in prices else 0.0)
    completion = frame["model"].map(lambda m: prices[m].completion if m in prices else 0.0)
    spent = frame["prompt_tokens"] * prompt + frame["completion_tokens"] * completion
    return (spent / PER).where(~frame["cached"].astype(bool), 0.0).astype(float)


def cost_table(
    calls: pd.DataFrame, by: Sequence[str], prices: Mapping[str, Price] | None = None
) -> pd.DataFrame:
    """Aggregate a run's `calls` frame by some of: system, role, turn (+ cost_usd if priced)."""
    columns = [*COST_COLUMNS, "cost_usd"] if prices else COST_COLUMNS
    frame = calls.copy()
    frame["system"] = frame["system"].fillna(SAMPLES_LABEL)
    frame["tokens"] = frame["prompt_tokens"] + frame["completion_tokens"]
    frame["errors"] = ~frame["ok"].astype(bool)
    if frame.empty:
        return pd.DataFrame(columns=[*by, *columns])
    frame["cost_usd"] = _call_costs(frame, prices) if prices else 0.0
    grouped = frame.groupby(list(by), dropna=False, sort=False)
    out = grouped.agg(
        calls=("role", "size"),
        errors=("errors", "sum"),
        cached=("cached", "sum"),
        prompt_tokens=("prompt_tokens", "sum"),
        completion_tokens=("completion_tokens", "sum"),
        tokens=("tokens", "sum"),
        latency_s=("latency_s", "sum"),
        cost_usd=("cost_usd", "sum"),
    ).reset_index()
    out["mean_latency_s"] = out["latency_s"] / out["calls"]
    for col in ("errors", "cached"):
        out[col] = out[col].astype(int)
    return out[[*by, *columns]]


def _fmt(value: object, column: str = "") -> str:
    if column == "cost_usd" and isinstance(value, float):
        return f"{value:.4f}"  # cents matter: a call often costs well under $0.001
    if isinstance(value, float):
        return f"{value:.3f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def frame_markdown(frame: pd.DataFrame) -> str:
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame]
    rows = [
        [_fmt(v, c) for v, c in zip(row, frame.columns, strict=True)]
        for row in frame.itertuples(index=False)
    ]
    return "\n".join(markdown_table(list(frame.columns), rows, numeric=numeric))


def render_cost_markdown(
    calls: pd.DataFrame, *, with_turns: bool = True, prices: Mapping[str, Price] | None = None
) -> str:
    """`## Cost`: per system, per system and role, and (optionally) per system and turn."""
    if calls.empty:
        return "## Cost\n\nNo LLM calls were recorded.\n"
    per_system = cost_table(calls, ["system"], prices)
    per_role = cost_table(calls, ["system", "role"], prices)
    per_turn = None
    if with_turns:
        per_turn = cost_table(calls[calls["turn"].notna()], ["system", "turn"], prices)
    return render_cost_tables(per_system, per_role, per_turn, prices)


def render_cost_tables(
    per_system: pd.DataFrame,
    per_role: pd.DataFrame,
    per_turn: pd.DataFrame | None,
    prices: Mapping[str, Price] | None,
) -> str:
    """`## Cost` from the tables (cost_table's, or a CallTally's); no calls: one line."""
    if per_system.empty:
        return "## Cost\n\nNo LLM calls were recorded.\n"
    parts = ["## Cost", "", "Per system:", "", frame_markdown(per_system)]
    parts += ["", "Per system and role:", "", frame_markdown(per_role)]
    if per_turn is not None:
        per_turn["turn"] = per_turn["turn"].astype(int)
        parts += ["", "Per system and turn:", "", frame_markdown(per_turn)]
    parts += [
        "",
        "Latency is wall time per call as the client saw it (summed, so concurrent calls "
        "overlap); cached calls cost no backend time.",
    ]
    if prices:
        parts[-1] += (
            f" cost_usd uses the scenario's prices (US$ per million tokens; total"
            f" ${per_system['cost_usd'].sum():.4f}); cached calls and models without a price"
            " cost nothing."
        )
    return "\n".join(parts) + "\n"
