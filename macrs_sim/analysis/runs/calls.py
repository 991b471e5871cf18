"""A comparison's LLM calls streamed into a CallTally, relabelled as `combine_runs` relabels
its frames (a system name shared by runs becomes "MACRS (run)", and so do its dialogue ids)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from macrs_sim.analysis.metrics.call_tally import Call, CallTally
from macrs_sim.analysis.metrics.usage import SIMULATOR_ROLES, LLMUsage
from macrs_sim.analysis.runs.combine import Comparison, relabelled_id
from macrs_sim.analysis.runs.frames import iter_call_values
from macrs_sim.config import Price
from macrs_sim.store import RunStore
from macrs_sim.store.read import damaged


def _relabelled(values: tuple[Any, ...], names: Mapping[str, str]) -> Call:
    d, system, role, turn, model, prompt, completion, latency, cached, ok, _error = values
    label = names.get(system, system) if system is not None else None
    if label != system and label is not None and d is not None:
        d = relabelled_id(d, label)
    return Call(d, label, role, turn, model, prompt, completion, latency, cached, ok)


# A system's own LLM calls (usage.py): in its own dialogues, not the simulator's ("user"),
# and of those the calls made in a stored turn, with their tokens. Integer sums: exact.
# The turn is looked up with EXISTS, not LEFT JOIN: SQLite cannot merge a view that is a
# join (format 2's `turns`) into a LEFT JOIN and would copy every turn to a temporary table.
# LIMIT -1 keeps the inner query a co-routine: merged, it would look each turn up twice.
USAGE_SQL = """
SELECT system, COUNT(*) AS calls, SUM(in_turn) AS in_turns,
       COALESCE(SUM(CASE WHEN in_turn THEN tokens END), 0) AS tokens
FROM (SELECT c.system AS system, c.prompt_tokens + c.completion_tokens AS tokens,
             EXISTS (SELECT 1 FROM turns t
                     WHERE t.dialogue_id = c.dialogue_id AND t.turn = c.turn) AS in_turn
      FROM llm_calls c
      JOIN dialogues d ON d.dialogue_id = c.dialogue_id AND d.system = c.system
      WHERE c.role NOT IN ({roles}) AND c.id <= ? AND d.rowid <= ? LIMIT -1)
GROUP BY system
"""


# Every cell of the call holds the type LLMCallRecord declares: such rows need no record.
_PLAIN = """typeof(prompt_tokens) = 'integer' AND typeof(completion_tokens) = 'integer'
AND typeof(cached) = 'integer' AND cached IN (0, 1) AND typeof(ok) = 'integer' AND ok IN (0, 1)
AND typeof(latency_s) IN ('integer', 'real') AND typeof(role) = 'text'
AND typeof(model) = 'text' AND typeof(turn) IN ('integer', 'null')
AND typeof(dialogue_id) IN ('text', 'null') AND typeof(system) IN ('text', 'null')
AND typeof(error) IN ('text', 'null')"""
ODD_CALL_SQL = f"SELECT 1 FROM llm_calls WHERE id <= ? AND NOT ({_PLAIN}) LIMIT 1"
# dialogue_id and error are read, not used: a cell SQLite cannot decode fails here too.
PLAIN_CALLS_SQL = """SELECT system, role, turn, model, prompt_tokens, completion_tokens,
latency_s, cached, ok, dialogue_id, error FROM llm_calls WHERE id <= ? ORDER BY id"""


def tally_calls(cmp: Comparison, prices: Mapping[str, Price] | None) -> CallTally:
    """Every run's calls, one at a time, into one tally (bounded memory at any size).

    A store whose cells all hold their declared types (SQLite checks it in one scan) is
    summed from plain rows; any other, or one SQLite cannot read, goes through the records,
    so a damaged cell is the same one-line error as everywhere else."""
    tally = CallTally(prices)
    for run, names in zip(cmp.runs, cmp.results.labels, strict=True):
        with run.store() as store:
            if _all_plain(store, run.last_call):
                _add_plain(tally, store, run.last_call, names)
                continue
            for values in iter_call_values(store, run.last_call):
                tally.add(_relabelled(values, names))
    return tally


def _all_plain(store: RunStore, upto: int | None) -> bool:
    try:
        return store.query(ODD_CALL_SQL, (_bound(upto),)).fetchone() is None
    except sqlite3.DatabaseError:
        return False  # the record path says what is wrong, in one line


def _add_plain(
    tally: CallTally, store: RunStore, upto: int | None, names: Mapping[str, str]
) -> None:
    try:
        tally.add_plain(store.query_tuples(PLAIN_CALLS_SQL, (_bound(upto),)), names)
    except sqlite3.DatabaseError as exc:  # a cell SQLite cannot hand over (not UTF-8)
        for _ in iter_call_values(store, upto):  # names the row, as the record path does
            pass
        raise damaged(store.path, "llm_calls", "unknown", exc) from None


def _bound(upto: int | None) -> int:
    return 2**63 - 1 if upto is None else upto  # None: every call (as iter_call_values)


def llm_usage(cmp: Comparison) -> dict[str, LLMUsage]:
    """Each system's own LLM calls as usage_table counts them, counted by SQLite."""
    out: dict[str, LLMUsage] = {}
    sql = USAGE_SQL.format(roles=", ".join("?" * len(SIMULATOR_ROLES)))
    for run, names in zip(cmp.runs, cmp.results.labels, strict=True):
        with run.store() as store:
            args = [*sorted(SIMULATOR_ROLES), run.last_call, run.last_dialogue]
            for row in store.query(sql, args):
                label = names.get(row["system"], row["system"])
                before = out.get(label, LLMUsage(0, 0, 0))
                out[label] = LLMUsage(
                    before.calls + int(row["calls"]),
                    before.in_turns + int(row["in_turns"]),
                    before.tokens_in_turns + int(row["tokens"]),
                )
    return out
