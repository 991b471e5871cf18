"""The session-wise user-simulator metrics (paper §4.1): Hit@k and AT@k from stored dialogues.

Hit@k: share of dialogues in which the user accepted a recommendation within the first k
turns. AT@k: average turns, a dialogue without such a success counting k + 1. Unlike the
MACRS paper's Hit@K, the fallback list after the last turn never counts. Every dialogue
counts, an error as a failure (as the campaign's own metrics do).

What the printed table is called and the notes under it describe the run as it was:
"session-wise" only when no system started with the user's past (InteRecAgent's
`long_term_memory` off), which simulated user it had, and how many items a turn it showed.
A scenario run for this protocol shows the paper's items a turn (`paper_protocol`) and
holds out each user's last item (`paper_sampling`).
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.registry import known_kinds, system_spec
from macrs_sim.analysis.runs.load import RunData
from macrs_sim.config import ProtocolConfig, Scenario, SimulatorConfig
from macrs_sim.errors import ConfigError, DataError

NEEDED = ("system", "status", "success_turn")
KIND = "interecagent"
# Items a turn: the paper's Candidate Fetching Tool shows 5 when the user names no number
# (Figure C2, "The default value is 5 if human doesn't give"); its session-wise runs cap
# nothing else. This project's InteRecAgent fetches 3 by default (`fetch_k`), below it.
PAPER_ITEMS_PER_TURN = 5
PAPER_SCENARIO = "scenarios/interecagent_session.toml"


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


def past_users(run: RunData) -> list[str]:
    """Systems of the run that started each dialogue with the user's interactions before the
    target, each with why: InteRecAgent with long-term memory on (the option's default when
    not recorded), and any kind whose spec always gives them (DESIGN.md §3)."""
    remember = InteRecAgentOptions.model_fields["long_term_memory"].default
    out = []
    for entry in run.scenario.get("systems", []):
        kind, name = str(entry.get("kind", "")), repr(str(entry.get("name", "")))
        if kind == KIND:
            if entry.get("long_term_memory", remember):
                out.append(f"{name} (InteRecAgent, long_term_memory = true)")
        elif kind in known_kinds() and system_spec(kind).history == "pre-target":
            out.append(f"{name} ({kind}: always)")
    return out


def session_title(run: RunData) -> str:
    """The table's title: "session-wise" only when it was."""
    wise = "session-wise " if run.scenario and not past_users(run) else ""
    return f"{run.name}: {wise}Hit@k and AT@k (a failure counts k + 1)"


def _memory_note(run: RunData) -> str | None:
    if not run.scenario:
        return ("note: the run has no scenario.resolved.toml, so whether a system had the"
                " user's past is unknown: not called session-wise")  # fmt: skip
    names = past_users(run)
    if not names:
        return None
    return (
        f"note: not session-wise: {', '.join(names)} started each dialogue with the user's"
        " interactions before the target; the paper's session-wise protocol has InteRecAgent's"
        f" long-term memory off ({PAPER_SCENARIO})"
    )


def _simulator_note(run: RunData) -> str | None:
    section = run.scenario.get("simulator", {})
    default = SimulatorConfig()
    kind = section.get("kind", default.kind)
    if kind != "llm":
        return (
            f"note: this run's simulated users were the {kind!r} simulator (simulator.kind ="
            f" {kind!r}), not an LLM user: they follow no instruction; the paper's protocol is"
            f" an LLM user with simulator.instruction = 'interecagent' ({PAPER_SCENARIO})"
        )
    instruction = section.get("instruction", default.instruction)
    if instruction == "interecagent":
        return None
    return (
        f"note: this run's simulated users followed the {instruction!r} instruction; the"
        f" paper's protocol is simulator.instruction = 'interecagent' ({PAPER_SCENARIO})"
    )


def items_line(run: RunData) -> str:
    """How many items a turn the run's systems could show, and whether that is the paper's."""
    n = run.scenario.get("protocol", {}).get("max_items_per_turn")
    if n is None:
        return "max_items_per_turn: not recorded (a run made before the limit existed)"
    if n == PAPER_ITEMS_PER_TURN:
        return f"max_items_per_turn = {n} (the run's; InteRecAgent's paper)"
    return (
        f"max_items_per_turn = {n} (the run's; InteRecAgent's paper shows"
        f" {PAPER_ITEMS_PER_TURN}: give `eval interecagent session` the scenario file to run it so)"
    )


def run_notes(run: RunData) -> list[str]:
    """What a reader of the table must know about the run it came from."""
    notes = [_memory_note(run), _simulator_note(run)]
    if not run.complete:
        notes.append(f"note: the run is not complete ({run.missing} dialogues missing)")
    return [n for n in notes if n is not None]


def paper_protocol(scenario: Scenario) -> tuple[Scenario, str]:
    """The scenario as this protocol runs it: the paper's items a turn, unless the scenario
    sets its own; and the line that says which."""
    protocol = scenario.protocol
    if "max_items_per_turn" in protocol.model_fields_set:
        n, paper = protocol.max_items_per_turn, PAPER_ITEMS_PER_TURN
        return scenario, f"max_items_per_turn = {n} (the scenario's; InteRecAgent's paper: {paper})"
    protocol = ProtocolConfig.model_validate(
        protocol.model_dump() | {"max_items_per_turn": PAPER_ITEMS_PER_TURN}
    )
    line = f"max_items_per_turn = {PAPER_ITEMS_PER_TURN} (InteRecAgent's paper)"
    return scenario.model_copy(update={"protocol": protocol}), line


def run_session_metrics(run: RunData, ks: Sequence[int]) -> pd.DataFrame:
    """`session_metrics` of a loaded run, k checked against the run's turn limit."""
    if not run.results:
        raise DataError(f"{run.path}: the run has no finished dialogue")
    max_turns = min(r.max_turns for r in run.results)
    return session_metrics(run.dialogues, check_ks(ks, max_turns))


def paper_sampling(scenario: Scenario) -> tuple[Scenario, str]:
    """The scenario with the paper's target, each user's last item (§4.1: "leaving out the
    last item in their history as the target"), unless it sets its own; the line saying so."""
    data = scenario.data
    if "target" in data.model_fields_set:
        return (
            scenario,
            f'data.target = "{data.target}" (the scenario\'s; InteRecAgent\'s paper: "last")',
        )
    updated = data.model_copy(update={"target": "last"})
    return scenario.model_copy(
        update={"data": updated}
    ), 'data.target = "last" (InteRecAgent\'s paper)'
