"""The session-wise user-simulator metrics (paper §4.1): Hit@k and AT@k from stored dialogues.

Hit@k: share of dialogues in which the user accepted a recommendation within the first k
turns. AT@k: average turns, a dialogue without such a success counting k + 1. Unlike the
MACRS paper's Hit@K, the fallback list after the last turn never counts. Every dialogue
counts, an error as a failure (as the campaign's own metrics do).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from macrs_sim.analysis.runs.load import RunData
from macrs_sim.errors import ConfigError, DataError

NEEDED = ("system", "status", "success_turn")


def check_ks(ks: Sequence[int], max_turns: int) -> list[int]:
    """Sorted distinct cut-offs; each within 1..max_turns (a later success was never seen)."""
    out = sorted(set(ks))
    if not out or out[0] < 1:
        raise ConfigError(f"--k {','.join(map(str, ks))}: expected positive integers like 1,3,5")
    if out[-1] > max_turns:
        raise ConfigError(
            f"--k {out[-1]}: the run's dialogues stopped after {max_turns} turns, so Hit@k"
            f" needs k <= {max_turns}"
        )
    return out


def session_turns(dialogues: pd.DataFrame, k: int) -> pd.Series:
    """Per dialogue: the success turn if within k, else k + 1."""
    turn = pd.to_numeric(dialogues["success_turn"], errors="coerce")
    hit = (dialogues["status"] == "success") & (turn <= k)
    return turn.where(hit, k + 1).astype(float)


def session_metrics(dialogues: pd.DataFrame, ks: Sequence[int]) -> pd.DataFrame:
    """One row per system (first-seen order): dialogues, errors, then Hit@k and AT@k per k.

    `dialogues` has at least the columns system, status, success_turn (a run's
    `RunData.dialogues`). Pure: no I/O, the input is not changed.
    """
    missing = [c for c in NEEDED if c not in dialogues.columns]
    if missing:
        raise ValueError(f"dialogues frame lacks column(s): {', '.join(missing)}")
    frame = dialogues.loc[:, list(NEEDED)].copy()
    columns = ["system", "dialogues", "errors"]
    for k in ks:
        turns = session_turns(frame, k)
        frame[f"Hit@{k}"] = (turns <= k).astype(float)
        frame[f"AT@{k}"] = turns
        columns += [f"Hit@{k}", f"AT@{k}"]
    frame["errors"] = (frame["status"] == "error").astype(int)
    grouped = frame.groupby("system", sort=False)
    out = grouped[[c for c in columns[3:]]].mean()
    out.insert(0, "errors", grouped["errors"].sum())
    out.insert(0, "dialogues", grouped.size())
    return out.reset_index()[columns]


def run_notes(run: RunData) -> list[str]:
    """What a reader of the table must know about the run it came from."""
    notes: list[str] = []
    instruction = run.scenario.get("simulator", {}).get("instruction", "macrs")
    if instruction != "interecagent":
        notes.append(
            f"note: this run's simulated users followed the {instruction!r} instruction; the"
            " paper's protocol is simulator.instruction = 'interecagent'"
            " (scenarios/interecagent_session.toml)"
        )
    if not run.complete:
        notes.append(f"note: the run is not complete ({run.missing} dialogues missing)")
    return notes


def run_session_metrics(run: RunData, ks: Sequence[int]) -> pd.DataFrame:
    """`session_metrics` of a loaded run, k checked against the run's turn limit."""
    if not run.results:
        raise DataError(f"{run.path}: the run has no finished dialogue")
    max_turns = min(r.max_turns for r in run.results)
    return session_metrics(run.dialogues, check_ks(ks, max_turns))
