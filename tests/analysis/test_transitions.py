"""Act transitions against values worked out by hand (MACRS paper §5.3.1, Figure 4).

The example (two systems, two dialogues each; * = accepted):
    A: a1 = ask, recommend*              -> START ask recommend success
       a2 = ask, chat, recommend, recommend -> START ask chat recommend recommend end
    B: b1 = recommend, recommend, recommend -> START recommend recommend recommend end
       b2 = recommend*                   -> START recommend success
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from matplotlib.patches import FancyArrowPatch

from macrs_sim.analysis.figures.transition_plot import (
    FIXED_POS,
    R,
    _bezier,
    _control,
    _rad,
    node_colors,
    plot_transition_graphs,
    transition_figure,
)
from macrs_sim.analysis.metrics.transitions import (
    STAT_COLUMNS,
    act_order,
    act_sequence_stats,
    act_sequences,
    entropy_bits,
    render_transitions_markdown,
    transition_frame,
    transition_graph,
    turn_entropy_frame,
)

DIALOGUES: dict[str, tuple[str, list[str], bool]] = {
    "a1": ("A", ["ask", "recommend"], True),
    "a2": ("A", ["ask", "chat", "recommend", "recommend"], False),
    "b1": ("B", ["recommend", "recommend", "recommend"], False),
    "b2": ("B", ["recommend"], True),
}


def _turns(dialogues: dict[str, tuple[str, list[str], bool]] = DIALOGUES) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    for dialogue_id, (system, acts, success) in dialogues.items():
        for turn, act in enumerate(acts, start=1):
            accepted = success and turn == len(acts)
            rows.append(
                {
                    "dialogue_id": dialogue_id,
                    "system": system,
                    "sample_id": f"s-{dialogue_id}",
                    "turn": turn,
                    "act": act,
                    "accepted": accepted,
                }
            )
    return pd.DataFrame(rows)


def _edges(graph: Any) -> dict[tuple[str, str], tuple[int, float]]:
    return {(u, v): (d["count"], d["probability"]) for u, v, d in graph.edges(data=True)}


def test_entropy_bits() -> None:
    assert entropy_bits([4]) == 0.0
    assert str(entropy_bits([4])) == "0.0"  # not -0.0, which would print as "-0.000"
    assert entropy_bits([1, 1]) == pytest.approx(1.0)
    assert entropy_bits([1, 1, 1, 1]) == pytest.approx(2.0)
    assert entropy_bits([2, 0, 2]) == pytest.approx(1.0)  # zero counts ignored
    assert math.isnan(entropy_bits([]))


def test_act_order() -> None:
    acts = {"end", "recommend", "zeta", "START", "ask", "alpha", "success", "chat"}
    assert act_order(acts) == [
        "START", "ask", "chat", "recommend", "alpha", "zeta", "success", "end"
    ]  # fmt: skip


def test_act_sequences_sort_turns_and_read_the_end() -> None:
    shuffled = _turns().sample(frac=1.0, random_state=3)
    # Rows in any order: dialogues come in order of first appearance, turns sorted.
    assert sorted(act_sequences(shuffled, "A")) == [
        (["ask", "chat", "recommend", "recommend"], "end"),
        (["ask", "recommend"], "success"),
    ]
    assert act_sequences(_turns(), "B") == [
        (["recommend", "recommend", "recommend"], "end"),
        (["recommend"], "success"),
    ]
    assert act_sequences(_turns(), "nobody") == []


def test_missing_accepted_reads_as_not_accepted() -> None:
    turns = _turns().astype({"accepted": "object"})
    turns.loc[turns["dialogue_id"] == "b2", "accepted"] = None
    assert act_sequences(turns, "B")[1] == (["recommend"], "end")


def test_reserved_act_name_is_refused() -> None:
    turns = _turns({"x": ("A", ["ask", "success"], False)})
    with pytest.raises(ValueError, match="success"):
        act_sequences(turns, "A")


def test_transition_graph_system_a() -> None:
    graph = transition_graph(_turns(), "A")
    assert list(graph.nodes) == ["START", "ask", "chat", "recommend", "success", "end"]
    # Out-counts: START 2 (a1, a2), ask 2, chat 1, recommend 3 (a1 once, a2 twice).
    assert _edges(graph) == {
        ("START", "ask"): (2, pytest.approx(2 / 2)),
        ("ask", "chat"): (1, pytest.approx(1 / 2)),
        ("ask", "recommend"): (1, pytest.approx(1 / 2)),
        ("chat", "recommend"): (1, pytest.approx(1 / 1)),
        ("recommend", "recommend"): (1, pytest.approx(1 / 3)),
        ("recommend", "success"): (1, pytest.approx(1 / 3)),
        ("recommend", "end"): (1, pytest.approx(1 / 3)),
    }


def test_transition_graph_system_b() -> None:
    graph = transition_graph(_turns(), "B")
    # Nodes are the acts used plus the three markers: no ask, no chat.
    assert list(graph.nodes) == ["START", "recommend", "success", "end"]
    # Out-counts: START 2, recommend 4 (b1: rec->rec twice, rec->end; b2: rec->success).
    assert _edges(graph) == {
        ("START", "recommend"): (2, pytest.approx(1.0)),
        ("recommend", "recommend"): (2, pytest.approx(2 / 4)),
        ("recommend", "success"): (1, pytest.approx(1 / 4)),
        ("recommend", "end"): (1, pytest.approx(1 / 4)),
    }


def test_transition_graph_of_unknown_system_has_only_markers() -> None:
    graph = transition_graph(_turns(), "nobody")
    assert list(graph.nodes) == ["START", "success", "end"]
    assert graph.number_of_edges() == 0


def test_transition_frame_order_and_values() -> None:
    frame = transition_frame(_turns(), ["B", "A"])
    assert list(frame.columns) == ["system", "source", "target", "count", "probability"]
    assert list(zip(frame.system, frame.source, frame.target, frame["count"], strict=True)) == [
        ("B", "START", "recommend", 2),
        ("B", "recommend", "recommend", 2),
        ("B", "recommend", "success", 1),
        ("B", "recommend", "end", 1),
        ("A", "START", "ask", 2),
        ("A", "ask", "chat", 1),
        ("A", "ask", "recommend", 1),
        ("A", "chat", "recommend", 1),
        ("A", "recommend", "recommend", 1),
        ("A", "recommend", "success", 1),
        ("A", "recommend", "end", 1),
    ]
    assert frame.probability.tolist() == pytest.approx(
        [1.0, 0.5, 0.25, 0.25, 1.0, 0.5, 0.5, 1.0, 1 / 3, 1 / 3, 1 / 3]
    )
    # Probabilities out of each source sum to one.
    assert frame.groupby(["system", "source"]).probability.sum().tolist() == pytest.approx(
        [1.0] * 6
    )
    # Default: systems in order of first appearance.
    assert transition_frame(_turns()).system.unique().tolist() == ["A", "B"]


def test_act_sequence_stats() -> None:
    stats = act_sequence_stats(_turns(), ["A", "B"]).set_index("system")
    assert list(stats.reset_index().columns) == STAT_COLUMNS
    a, b = stats.loc["A"], stats.loc["B"]
    # A: act->act pairs a1: ask>rec; a2: ask>chat, chat>rec, rec>rec -> 4, one repeat.
    assert (a.dialogues, a.transitions) == (2, 4)
    assert a.repeat_rate == pytest.approx(1 / 4)
    assert a.mean_distinct_acts == pytest.approx((2 + 3) / 2)
    # Runs: a1 [ask][rec], a2 [ask][chat][rec rec] -> 6 turns / 5 runs.
    assert a.mean_run_length == pytest.approx(6 / 5)
    # Acts over all 6 turns: ask 2, chat 1, recommend 3:
    # H = 1/3 log2 3 + 1/6 log2 6 + 1/2 log2 2 = 0.52832 + 0.43083 + 0.5 = 1.45915
    expected = math.log2(3) / 3 + math.log2(6) / 6 + 0.5
    assert a.act_entropy == pytest.approx(expected)
    assert a.act_entropy == pytest.approx(1.459148, abs=1e-6)
    # Per turn: t1 {ask, ask} 0; t2 {rec, chat} 1; t3 {rec} 0; t4 {rec} 0 -> mean 1/4.
    assert a.mean_turn_entropy == pytest.approx(0.25)
    # H(next | current): ask -> {chat 1, rec 1} = 1 bit, weight 2; chat -> {rec} = 0,
    # weight 1; rec -> {rec} = 0, weight 1 -> (2 * 1 + 0 + 0) / 4 = 0.5.
    assert a.transition_entropy == pytest.approx(0.5)

    # B: pairs b1: rec>rec twice; b2 none -> 2, both repeats.
    assert (b.dialogues, b.transitions) == (2, 2)
    assert b.repeat_rate == pytest.approx(1.0)
    assert b.mean_distinct_acts == pytest.approx(1.0)
    # Runs: b1 [rec rec rec], b2 [rec] -> 4 turns / 2 runs.
    assert b.mean_run_length == pytest.approx(2.0)
    # One act only: every entropy is log2(1) = 0.
    assert (b.act_entropy, b.mean_turn_entropy, b.transition_entropy) == (0.0, 0.0, 0.0)


def test_stats_of_a_system_without_turns_are_nan() -> None:
    row = act_sequence_stats(_turns(), ["nobody"]).iloc[0]
    assert (row.dialogues, row.transitions) == (0, 0)
    for column in STAT_COLUMNS[3:]:
        assert math.isnan(row[column]), column


def test_single_turn_dialogues_have_no_transitions() -> None:
    row = act_sequence_stats(_turns({"x": ("C", ["ask"], False)}), ["C"]).iloc[0]
    assert (row.dialogues, row.transitions, row.mean_run_length) == (1, 0, 1.0)
    assert math.isnan(row.repeat_rate) and math.isnan(row.transition_entropy)


def test_turn_entropy_frame() -> None:
    frame = turn_entropy_frame(_turns(), ["A", "B"])
    assert list(frame.columns) == ["system", "turn", "n", "entropy"]
    assert list(zip(frame.system, frame.turn, frame.n, strict=True)) == [
        ("A", 1, 2),
        ("A", 2, 2),
        ("A", 3, 1),
        ("A", 4, 1),
        ("B", 1, 2),
        ("B", 2, 1),
        ("B", 3, 1),
    ]
    assert frame.entropy.tolist() == pytest.approx([0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0])


def test_render_transitions_markdown() -> None:
    turns = _turns()
    text = render_transitions_markdown(
        transition_frame(turns, ["A", "B"]), act_sequence_stats(turns, ["A", "B"])
    )
    assert text.startswith("## Act transitions\n")
    assert "| A | 2 | 4 | 0.250 | 2.500 | 1.200 | 1.459 | 0.250 | 0.500 |" in text
    assert "| B | 2 | 2 | 1.000 | 1.000 | 2.000 | 0.000 | 0.000 | 0.000 |" in text
    # Matrices share the columns ask, chat, recommend, success, end (B never asks).
    assert "### B: transition probabilities" in text
    assert "| from \\ to | ask | chat | recommend | success | end |" in text
    assert "| **START** | · | · | 1.00 | · | · |" in text
    assert "| **recommend** | · | · | 0.50 | 0.25 | 0.25 |" in text
    assert "| **ask** | · | 0.50 | 0.50 | · | · |" in text  # A's ask row; B has none
    assert text.count("| **ask** |") == 1
    assert "| **recommend** | · | · | 0.33 | 0.33 | 0.33 |" in text  # A's recommend row
    for name in STAT_COLUMNS[1:]:
        assert f"- **{name}**:" in text


def _random_turns(seed: int = 7, n: int = 100) -> pd.DataFrame:
    """Three systems with different act habits, up to five turns, seeded."""
    rng = random.Random(seed)
    profiles = {
        "MACRS-C": [0.4, 0.15, 0.45],
        "ChatGPT": [0.1, 0.0, 0.9],
        "Llama2 w/o SR+IR": [0.6, 0.05, 0.35],
    }
    rows: list[dict[str, Any]] = []
    for system, weights in profiles.items():
        for d in range(n):
            for turn in range(1, 6):
                act = rng.choices(["ask", "chat", "recommend"], weights)[0]
                accepted = act == "recommend" and rng.random() < 0.25
                rows.append(
                    {
                        "dialogue_id": f"{system}-{d}",
                        "system": system,
                        "sample_id": f"s{d}",
                        "turn": turn,
                        "act": act,
                        "accepted": accepted,
                    }
                )
                if accepted:
                    break
    return pd.DataFrame(rows)


def test_plot_transition_graphs_writes_png(tmp_path: Path) -> None:
    turns = _random_turns()
    graphs = {s: transition_graph(turns, s) for s in turns.system.unique()}
    out = plot_transition_graphs(graphs, tmp_path / "figs" / "transitions.png")
    assert out == tmp_path / "figs" / "transitions.png"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in out.parent.iterdir()] == ["transitions.png"]  # no temporary left


def test_plot_transition_graphs_refuses_a_path_without_png(tmp_path: Path) -> None:
    # Scratch renders once landed in the repository as PNGs named `3` and `6`.
    graphs = {"A": transition_graph(_random_turns(n=5), "MACRS-C")}
    with pytest.raises(ValueError, match=r"3: a figure path must end in \.png"):
        plot_transition_graphs(graphs, tmp_path / "3")
    assert list(tmp_path.iterdir()) == []


def test_every_edge_is_drawn_and_labelled() -> None:
    turns = _random_turns(n=30)
    graphs = {s: transition_graph(turns, s) for s in turns.system.unique()}
    fig = transition_figure(graphs)
    assert fig._suptitle is not None and fig._suptitle.get_text() == "Dialogue-act transitions"
    for ax, (system, graph) in zip(fig.axes, graphs.items(), strict=True):
        assert ax.get_title() == system
        arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
        assert len(arrows) == graph.number_of_edges()  # self-loops included
        texts = [t.get_text() for t in ax.texts]
        for _, _, data in graph.edges(data=True):
            assert f"{data['probability']:.2f}" in texts


def test_node_colours_follow_the_project_palette() -> None:
    plots = pytest.importorskip("macrs_sim.analysis.figures.plots")
    colors = node_colors(["START", "ask", "chat", "recommend", "clarify", "success", "end"])
    for act, color in plots.ACT_COLORS.items():
        assert colors[act] == color
    assert len(set(colors.values())) == 7


def test_edges_bend_around_third_nodes() -> None:
    # ask -> end runs straight through recommend on the fixed layout: it must bend.
    pos = dict(FIXED_POS)
    for u in pos:
        for v in pos:
            if u == v:
                continue
            rad = _rad(u, v, pos, two_way=False)
            c = _control(pos[u], pos[v], rad)
            curve = [_bezier(pos[u], c, pos[v], i / 20) for i in range(2, 19)]
            others = [p for n, p in pos.items() if n not in (u, v)]
            assert all(math.dist(p, o) > 1.4 * R for p in curve for o in others), (u, v)
    assert _rad("ask", "end", pos, two_way=False) != 0.0
