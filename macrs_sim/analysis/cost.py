"""Cost of a run: LLM calls, tokens and latency per system, role and turn.

Calls made while preparing samples (target profiles, openings) belong to no
system; they are listed as "(samples)" so the totals add up.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

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


def cost_table(calls: pd.DataFrame, by: Sequence[str]) -> pd.DataFrame:
    """Aggregate a run's `calls` frame by some of: system, role, turn."""
    frame = calls.copy()
    frame["system"] = frame["system"].fillna(SAMPLES_LABEL)
    frame["tokens"] = frame["prompt_tokens"] + frame["completion_tokens"]
    frame["errors"] = ~frame["ok"].astype(bool)
    if frame.empty:
        return pd.DataFrame(columns=[*by, *COST_COLUMNS])
    grouped = frame.groupby(list(by), dropna=False, sort=False)
    out = grouped.agg(
        calls=("role", "size"),
        errors=("errors", "sum"),
        cached=("cached", "sum"),
        prompt_tokens=("prompt_tokens", "sum"),
        completion_tokens=("completion_tokens", "sum"),
        tokens=("tokens", "sum"),
        latency_s=("latency_s", "sum"),
    ).reset_index()
    out["mean_latency_s"] = out["latency_s"] / out["calls"]
    for col in ("errors", "cached"):
        out[col] = out[col].astype(int)
    return out[[*by, *COST_COLUMNS]]


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def markdown_table(frame: pd.DataFrame) -> str:
    header = "| " + " | ".join(frame.columns) + " |"
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) for c in frame]
    align = "| " + " | ".join("---:" if n else "---" for n in numeric) + " |"
    rows = ["| " + " | ".join(_fmt(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, align, *rows])


def render_cost_markdown(calls: pd.DataFrame, *, with_turns: bool = True) -> str:
    """`## Cost`: per system, per system and role, and (optionally) per system and turn."""
    if calls.empty:
        return "## Cost\n\nNo LLM calls were recorded.\n"
    parts = ["## Cost", "", "Per system:", "", markdown_table(cost_table(calls, ["system"]))]
    parts += ["", "Per system and role:", "", markdown_table(cost_table(calls, ["system", "role"]))]
    if with_turns:
        per_turn = cost_table(calls[calls["turn"].notna()], ["system", "turn"])
        per_turn["turn"] = per_turn["turn"].astype(int)
        parts += ["", "Per system and turn:", "", markdown_table(per_turn)]
    parts += [
        "",
        "Latency is wall time per call as the client saw it (summed, so concurrent calls "
        "overlap); cached calls cost no backend time.",
    ]
    return "\n".join(parts) + "\n"
