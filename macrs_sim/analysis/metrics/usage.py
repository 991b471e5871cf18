"""Model and tool calls per turn and per dialogue, per system (InteRecAgent's point:
plan-first spends about two LLM calls a turn, ReAct one per tool).

A system's own calls: those attributed to the system, minus the LLM user simulator's
(role "user", which carries the system's name). "Per turn" counts the calls attributed
to a stored exchange (same dialogue, same turn number) over the exchanges: the fallback
list (turn max_turns + 1) and a turn an error cut short are not turns. "Per dialogue"
counts all of them (fallback included) over the system's dialogues. Judge calls and
sample preparation belong to no system and are not counted here (see the cost tables).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.metrics.rows import distinct_turns, rows_where

# Roles whose calls carry a system's name without being that system's calls.
SIMULATOR_ROLES = frozenset({"user"})
USAGE_COLUMNS = [
    "system",
    "dialogues",
    "turns",
    "llm_calls_per_turn",
    "tokens_per_turn",
    "llm_calls_per_dialogue",
    "tool_calls_per_turn",
    "tool_calls_per_dialogue",
    "tool_calls",
    "tool_errors",
]


def _own(frame: pd.DataFrame, system: str, dialogue_ids: set[str]) -> pd.DataFrame:
    mask = (frame["system"] == system) & frame["dialogue_id"].isin(dialogue_ids)
    return frame[mask & ~frame["role"].isin(SIMULATOR_ROLES)]


def _in_turns(frame: pd.DataFrame, keys: set[tuple[str, int]]) -> pd.DataFrame:
    hits = [
        pd.notna(t) and (d, int(t)) in keys
        for d, t in zip(frame["dialogue_id"], frame["turn"], strict=True)
    ]
    return frame[pd.Series(hits, index=frame.index, dtype=bool)]


def _ratio(part: float, whole: int) -> float:
    return part / whole if whole else math.nan


@dataclass(frozen=True)
class LLMUsage:
    """A system's own LLM calls: all of them, those in a stored turn, and their tokens."""

    calls: int
    in_turns: int
    tokens_in_turns: int


def _llm_usage(calls: pd.DataFrame, system: str, ids: set[str], keys: set[Any]) -> LLMUsage:
    llm = _own(calls, system, ids)
    llm_in = _in_turns(llm, keys)
    tokens = int(llm_in["prompt_tokens"].sum() + llm_in["completion_tokens"].sum())
    return LLMUsage(len(llm), len(llm_in), tokens)


def _row(
    system: str, dialogues: pd.DataFrame, turns: pd.DataFrame,
    calls: pd.DataFrame | Mapping[str, LLMUsage], tool_calls: pd.DataFrame,
) -> dict[str, object]:  # fmt: skip
    own_ids = dialogues.loc[dialogues["system"] == system, "dialogue_id"]
    own_turns = rows_where(turns, turns["system"] == system)
    if not isinstance(calls, pd.DataFrame) and not (tool_calls["system"] == system).any():
        # Counted, not collected: no set of every dialogue and turn (a report of a million).
        n_dialogues, n_turns = own_ids.nunique(dropna=False), distinct_turns(own_turns)
        return _cells(system, n_dialogues, n_turns, calls.get(system, LLMUsage(0, 0, 0)))
    ids = set(own_ids)
    pairs = zip(own_turns["dialogue_id"], own_turns["turn"], strict=True)
    keys = {(str(d), int(t)) for d, t in pairs}
    if isinstance(calls, pd.DataFrame):
        llm = _llm_usage(calls, system, ids, keys)
    else:
        llm = calls.get(system, LLMUsage(0, 0, 0))
    tools = _own(tool_calls, system, ids)
    tools_in = _in_turns(tools, keys)
    errors = int((~tools["ok"].astype(bool)).sum())
    return _cells(system, len(ids), len(keys), llm, (len(tools), len(tools_in), errors))


def _cells(
    system: str, dialogues: int, turns: int, llm: LLMUsage, tools: tuple[int, int, int] = (0, 0, 0)
) -> dict[str, object]:
    """The row; `tools`: the system's tool calls, those in a stored turn, and the failed."""
    calls, in_turns, errors = tools
    return {
        "system": system,
        "dialogues": dialogues,
        "turns": turns,
        "llm_calls_per_turn": _ratio(llm.in_turns, turns),
        "tokens_per_turn": _ratio(llm.tokens_in_turns, turns),
        "llm_calls_per_dialogue": _ratio(llm.calls, dialogues),
        "tool_calls_per_turn": _ratio(in_turns, turns),
        "tool_calls_per_dialogue": _ratio(calls, dialogues),
        "tool_calls": calls,
        "tool_errors": errors,
    }


def usage_table(
    dialogues: pd.DataFrame,
    turns: pd.DataFrame,
    calls: pd.DataFrame | Mapping[str, LLMUsage],
    tool_calls: pd.DataFrame,
    systems: Sequence[str],
) -> pd.DataFrame:
    """One row per system (in `systems`' order): calls and tokens per turn and dialogue.
    `calls`: every call, or each system's LLMUsage as a CallTally counted it."""
    rows = [_row(s, dialogues, turns, calls, tool_calls) for s in systems]
    return pd.DataFrame(rows, columns=USAGE_COLUMNS)


def _cell(value: object) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:,.2f}"
    return f"{value:,}" if isinstance(value, int) else str(value)


def render_usage_markdown(table: pd.DataFrame) -> str:
    """`## Calls per turn`: the usage table with what its columns count."""
    title = "## Calls per turn\n\n"
    if table.empty:
        return title + "No dialogues were stored.\n"
    rows = [[_cell(v) for v in row] for row in table.astype(object).itertuples(index=False)]
    lines = markdown_table(list(table.columns), rows)
    note = (
        "A system's own calls (the LLM user simulator's are not). Per turn: calls made in a "
        "stored turn over the turns; per dialogue: all of them, the fallback list included, "
        "over the dialogues. tool_errors: tool calls that returned an error to the system."
    )
    return title + "\n".join(lines) + "\n\n" + note + "\n"
