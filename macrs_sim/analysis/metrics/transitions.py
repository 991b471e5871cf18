"""Dialogue-act sequences and transitions: how varied a system's act planning is (§5.3.1).

The MACRS paper claims (§5.3.1, Figure 4) that MACRS picks dialogue acts with more
diversity than single-LLM baselines, which "tend to directly recommend or ask" every
turn. This module measures that from the `turns` frame of `load_run`:

- each dialogue's acts in turn order, framed as START -> first act -> ... -> last act -> END,
  where END is "success" when the last turn was accepted, else "end" (the dialogue ran
  out of turns or ended in an error);
- a transition graph per system (edge `count` and `probability` = count / out-count of
  the source node) and a long frame of all of them;
- summary statistics (see `STAT_DEFINITIONS`), per-turn entropies (Figure 4's
  "diversity per turn") and a markdown section.

Dialogues without any turn have no act sequence and are left out. Entropies are in bits;
a statistic with nothing to measure (no turns, no act->act transition) is NaN.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import networkx as nx
import numpy as np
import pandas as pd

from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.metrics.rows import grouped_codes, rows_where

START = "START"
SUCCESS = "success"
END = "end"
PAPER_ACTS = ("ask", "chat", "recommend")
TERMINALS = (SUCCESS, END)
RESERVED = (START, *TERMINALS)

STAT_COLUMNS = [
    "system",
    "dialogues",
    "transitions",
    "repeat_rate",
    "mean_distinct_acts",
    "mean_run_length",
    "act_entropy",
    "mean_turn_entropy",
    "transition_entropy",
]
STAT_DEFINITIONS = {
    "dialogues": "dialogues with at least one turn.",
    "transitions": "act->act transitions (START and the end markers not counted).",
    "repeat_rate": "share of act->act transitions that repeat the same act.",
    "mean_distinct_acts": "mean over dialogues of the number of different acts used.",
    "mean_run_length": "mean length of the maximal runs of one act, pooled over all "
    "dialogues (turns / runs; 1 = the act changes every turn).",
    "act_entropy": "Shannon entropy (bits) of the act distribution over all turns "
    "(log2 of the number of acts = all equally used, 0 = one act only).",
    "mean_turn_entropy": "entropy of the act distribution at each turn number across "
    "dialogues, averaged (unweighted) over turn numbers: the diversity per turn of "
    "the paper's Figure 4.",
    "transition_entropy": "conditional entropy H(next act | current act) over act->act "
    "transitions: the entropy of each act's next-act distribution, weighted by how often "
    "that act is followed by another act. START (the first act, already in the turn-1 "
    "entropy) and the end markers (driven by success and the turn budget, not planning) "
    "are left out. 0 = the next act is fully predictable from the current one.",
}


def act_order(acts: Iterable[str]) -> list[str]:
    """Acts in the fixed order START, ask, chat, recommend, other acts sorted, success, end."""
    present = set(acts)
    known = [a for a in (START, *PAPER_ACTS) if a in present]
    others = sorted(present - {*PAPER_ACTS, *RESERVED})
    return known + others + [t for t in TERMINALS if t in present]


def _order_key(nodes: Iterable[str]) -> dict[str, int]:
    return {node: i for i, node in enumerate(act_order(nodes))}


def entropy_bits(counts: Iterable[int]) -> float:
    """Shannon entropy in bits of a distribution given by counts; NaN when empty."""
    values = [c for c in counts if c > 0]
    total = sum(values)
    if total == 0:
        return math.nan
    return sum(c / total * math.log2(total / c) for c in values)  # no -0.0 for one value


Sequences = Counter[tuple[tuple[str, ...], str]]  # (acts, END) -> dialogues


def _dialogue_runs(turns: pd.DataFrame, system: str) -> Iterator[tuple[tuple[str, ...], str]]:
    """Per dialogue of `system` (first-appearance order): its acts in turn order and END.

    Sorted as arrays (dialogue in first-appearance order, then turn, stable, as sorting each
    dialogue's rows was): a million turns cost a few arrays, not a tuple a turn."""
    rows = rows_where(turns, turns["system"] == system)
    codes = grouped_codes(rows)
    if codes is not None:  # already grouped and in turn order: nothing to sort
        acts, accepted = rows["act"].to_numpy(), rows["accepted"].to_numpy()
    else:
        codes = pd.factorize(rows["dialogue_id"])[0]  # a missing id is -1: left out, as groupby
        keep = codes >= 0
        codes = codes[keep]
        order = np.lexsort((rows["turn"].to_numpy()[keep], codes))
        codes, acts = codes[order], rows["act"].to_numpy()[keep][order]
        accepted = rows["accepted"].to_numpy()[keep][order]
    ends = [*(np.flatnonzero(np.diff(codes)) + 1).tolist(), len(codes)]
    start = 0
    for end in ends if len(codes) else ():
        last = accepted[end - 1]
        done = bool(last) if pd.notna(last) else False
        yield tuple(str(a) for a in acts[start:end]), SUCCESS if done else END
        start = end


def act_sequences(turns: pd.DataFrame, system: str) -> list[tuple[list[str], str]]:
    """Per dialogue of `system` (first-appearance order): its acts in turn order and END."""
    out = [(list(acts), end) for acts, end in _dialogue_runs(turns, system)]
    _check_names(a for acts, _ in out for a in acts)
    return out


def sequence_counts(turns: pd.DataFrame, system: str) -> Sequences:
    """`act_sequences` counted: each distinct (acts, END) and its dialogues, in order of
    first appearance (every count and first-appearance order below is the same)."""
    counts: Sequences = Counter(_dialogue_runs(turns, system))
    _check_names(a for acts, _ in counts for a in acts)
    return counts


def _check_names(acts: Iterable[str]) -> None:
    clash = set(acts) & set(RESERVED)
    if clash:
        raise ValueError(f"act name(s) {sorted(clash)} clash with transition markers")


def _path(acts: Sequence[str], end: str) -> list[str]:
    return [START, *acts, end]


def _transition_counts(sequences: Sequences) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    for (acts, end), n in sequences.items():
        path = _path(acts, end)
        for pair in zip(path, path[1:], strict=False):
            counts[pair] += n
    return counts


def transition_graph(turns: pd.DataFrame, system: str) -> nx.DiGraph:
    """Nodes: the system's acts plus START, success and end; edges: `count`, `probability`."""
    sequences = sequence_counts(turns, system)
    counts = _transition_counts(sequences)
    out_counts: Counter[str] = Counter()
    for (source, _), n in counts.items():
        out_counts[source] += n
    graph = nx.DiGraph(system=system)
    acts = {a for seq, _ in sequences for a in seq}
    graph.add_nodes_from(act_order({*acts, *RESERVED}))
    order = _order_key(graph.nodes)
    for (source, target), n in sorted(
        counts.items(), key=lambda e: (order[e[0][0]], order[e[0][1]])
    ):
        graph.add_edge(source, target, count=n, probability=n / out_counts[source])
    return graph


def _systems(turns: pd.DataFrame, systems: Sequence[str] | None) -> list[str]:
    if systems is not None:
        return list(systems)
    return [str(s) for s in dict.fromkeys(turns["system"])]


def transition_frame(turns: pd.DataFrame, systems: Sequence[str] | None = None) -> pd.DataFrame:
    """Long frame: system, source, target, count, probability (systems in the given order,
    then source and target in `act_order`). `systems=None`: order of first appearance."""
    rows: list[dict[str, Any]] = []
    for system in _systems(turns, systems):
        graph = transition_graph(turns, system)
        order = _order_key(graph.nodes)
        edges = sorted(graph.edges(data=True), key=lambda e: (order[e[0]], order[e[1]]))
        rows += [
            {
                "system": system,
                "source": s,
                "target": t,
                **{k: d[k] for k in ("count", "probability")},
            }
            for s, t, d in edges
        ]
    frame = pd.DataFrame(rows, columns=["system", "source", "target", "count", "probability"])
    return frame.astype({"count": "int64", "probability": "float64"})


def _runs(acts: Sequence[str]) -> int:
    return sum(1 for i, act in enumerate(acts) if i == 0 or act != acts[i - 1])


def _turn_entropies(turns: pd.DataFrame, system: str) -> list[tuple[int, int, float]]:
    # As groupby("turn", sort=True) over two arrays, not sub-frames of every column.
    rows = rows_where(turns, turns["system"] == system)
    numbers, acts = rows["turn"].to_numpy(), rows["act"].to_numpy(dtype=object)
    out: list[tuple[int, int, float]] = []
    for turn in sorted(rows["turn"].dropna().unique()):
        group = acts[numbers == turn]
        counts = Counter(str(a) for a in group)
        out.append((int(turn), len(group), entropy_bits(counts.values())))
    return out


def turn_entropy_frame(turns: pd.DataFrame, systems: Sequence[str] | None = None) -> pd.DataFrame:
    """Per system and turn number: n (dialogues with that turn) and the act entropy in bits."""
    rows = [
        {"system": system, "turn": turn, "n": n, "entropy": h}
        for system in _systems(turns, systems)
        for turn, n, h in _turn_entropies(turns, system)
    ]
    frame = pd.DataFrame(rows, columns=["system", "turn", "n", "entropy"])
    return frame.astype({"turn": "int64", "n": "int64", "entropy": "float64"})


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _ratio(num: float, den: float) -> float:
    return num / den if den else math.nan


def _system_stats(turns: pd.DataFrame, system: str) -> dict[str, Any]:
    # Counted over distinct sequences times their dialogues: integer sums, and every
    # Counter filled in the order of first appearance, so the floats are as before.
    sequences = sequence_counts(turns, system)
    dialogues = sum(sequences.values())
    acts_all: Counter[str] = Counter()
    by_source: dict[str, Counter[str]] = {}
    pairs = repeats = distinct = turns_all = runs = 0
    for (acts, _), n in sequences.items():
        for act in acts:
            acts_all[act] += n
        for source, target in zip(acts, acts[1:], strict=False):
            by_source.setdefault(source, Counter())[target] += n
            pairs += n
            repeats += n * (source == target)
        distinct += n * len(set(acts))
        turns_all += n * len(acts)
        runs += n * _runs(acts)
    conditional = sum(sum(c.values()) * entropy_bits(c.values()) for c in by_source.values())
    return {
        "system": system,
        "dialogues": dialogues,
        "transitions": pairs,
        "repeat_rate": _ratio(repeats, pairs),
        "mean_distinct_acts": distinct / dialogues if dialogues else math.nan,
        "mean_run_length": _ratio(turns_all, runs),
        "act_entropy": entropy_bits(acts_all.values()),
        "mean_turn_entropy": _mean([h for _, _, h in _turn_entropies(turns, system)]),
        "transition_entropy": _ratio(conditional, pairs),
    }


def act_sequence_stats(turns: pd.DataFrame, systems: Sequence[str] | None = None) -> pd.DataFrame:
    """One row per system with the statistics of `STAT_DEFINITIONS` (columns `STAT_COLUMNS`)."""
    rows = [_system_stats(turns, system) for system in _systems(turns, systems)]
    frame = pd.DataFrame(rows, columns=STAT_COLUMNS)
    return frame.astype({"dialogues": "int64", "transitions": "int64"})


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.3f}"
    return str(value)


def _matrix(frame: pd.DataFrame) -> list[str]:
    """Rows = from (START, the acts used), columns = to (acts, success, end); "·" = never.
    The paper's three acts are always columns, so matrices of different systems line up."""
    nodes = act_order({*frame["source"], *frame["target"], *PAPER_ACTS, *RESERVED})
    sources = [n for n in nodes if n in set(frame["source"])]
    targets = [n for n in nodes if n != START]
    cells = zip(frame["source"], frame["target"], frame["probability"], strict=True)
    prob = {(s, t): p for s, t, p in cells}
    rows = [
        [f"**{s}**", *(f"{prob[(s, t)]:.2f}" if (s, t) in prob else "·" for t in targets)]
        for s in sources
    ]
    return markdown_table(["from \\ to", *targets], rows)


def render_transitions_markdown(frame: pd.DataFrame, stats: pd.DataFrame) -> str:
    """A "## Act transitions" section: `stats` table, one probability matrix per system of
    `frame` (from `transition_frame`), then what each statistic means."""
    lines = ["## Act transitions", ""]
    lines += markdown_table(
        STAT_COLUMNS, [[_fmt(row[c]) for c in STAT_COLUMNS] for row in stats.to_dict("records")]
    )
    for system in dict.fromkeys([*stats["system"], *frame["system"]]):
        part = frame[frame["system"] == system]
        lines += ["", f"### {system}: transition probabilities", ""]
        lines += _matrix(part) if len(part) else ["No dialogue with a turn."]
    lines += ["", "Each dialogue is read as START -> acts in turn order -> success (last turn "]
    lines[-1] += "accepted) or end (ran out of turns or errored). Statistics:"
    lines += ["", *(f"- **{name}**: {text}" for name, text in STAT_DEFINITIONS.items())]
    return "\n".join(lines) + "\n"
