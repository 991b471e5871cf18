"""Draw the dialogue-act transition graphs of `analysis.metrics.transitions`, one panel per system.

Every panel puts START, ask, chat, recommend, success and end at the same place, so the
panels compare at a glance; the paper's acts a system never used are drawn faded. Edge
width follows the transition probability and each edge carries it as a label, self-loops
included (a repeated act is the single-LLM baselines' habit the paper points at).

The drawing is done with matplotlib patches in data coordinates rather than networkx's
drawing helpers: arrows then end exactly on the node circles, self-loops point away from
the graph, and an edge that would run through a third node is bent around it.
Figures are plain `matplotlib.figure.Figure` objects rendered by Agg, like `plots`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import networkx as nx
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch
from matplotlib.path import Path as MplPath

from macrs_sim.analysis.atomic import save_png_atomic
from macrs_sim.analysis.figures.plain import plain_text
from macrs_sim.analysis.metrics.transitions import (
    END,
    PAPER_ACTS,
    RESERVED,
    START,
    SUCCESS,
    act_order,
)

DPI = 120
R = 0.5  # node radius, data units
# Used only when `analysis.plots` (the project's palette) cannot be imported.
FALLBACK_ACT_COLORS = {"ask": "#4C72B0", "chat": "#55A868", "recommend": "#DD8452"}
FALLBACK_OTHER_COLORS = ("#8172B3", "#937860", "#DA8BC3", "#8C8C8C", "#CCB974", "#64B5CD")
MARKER_COLORS = {START: "#D9D9D9", SUCCESS: "#8FD19E", END: "#E8A0A0"}
FIXED_POS: dict[str, tuple[float, float]] = {
    START: (0.0, 0.0),
    "ask": (1.5, 1.5),
    "chat": (1.5, -1.5),
    "recommend": (3.1, 0.0),
    SUCCESS: (4.7, 1.5),
    END: (4.7, -1.5),
}
# Which way each node's self-loop points (degrees); acts off the fixed places loop down.
LOOP_ANGLE = {"ask": 90.0, "chat": 270.0, "recommend": 0.0}
PAIR_RAD = 0.22  # curvature of each direction of a two-way pair: keeps them apart
LABEL_TS = (0.5, 0.42, 0.58, 0.34, 0.66, 0.27, 0.73)  # label spots tried along an edge
LABEL_W, LABEL_H = 0.55, 0.25
Point = tuple[float, float]
Label = tuple[list[Point], float]  # candidate spots, probability


def _palette() -> tuple[dict[str, str], tuple[str, ...]]:
    try:
        from macrs_sim.analysis.figures import plots
    except ImportError:
        return FALLBACK_ACT_COLORS, FALLBACK_OTHER_COLORS
    acts = getattr(plots, "ACT_COLORS", FALLBACK_ACT_COLORS)
    others = getattr(plots, "OTHER_ACT_COLORS", FALLBACK_OTHER_COLORS)
    return dict(acts), tuple(others)


def node_colors(nodes: Sequence[str]) -> dict[str, str]:
    """The project's act palette (`figures.plots` if importable), greys for markers."""
    acts, others = _palette()
    extra = [n for n in nodes if n not in acts and n not in RESERVED]
    colors = {n: acts[n] for n in nodes if n in acts}
    colors |= {n: others[i % len(others)] for i, n in enumerate(extra)}
    return colors | {n: MARKER_COLORS[n] for n in nodes if n in MARKER_COLORS}


def positions(nodes: Sequence[str]) -> dict[str, Point]:
    """The fixed places, then acts other than the paper's on a row below the graph."""
    pos = {n: FIXED_POS[n] for n in nodes if n in FIXED_POS}
    extra = [n for n in nodes if n not in FIXED_POS]
    for i, node in enumerate(extra):
        pos[node] = (0.4 + 3.9 * (i + 0.5) / len(extra), -3.1)
    return pos


def _control(a: Point, b: Point, rad: float) -> Point:
    # matplotlib's arc3: the control point sits `rad` * length off the chord's middle.
    dx, dy = b[0] - a[0], b[1] - a[1]
    return ((a[0] + b[0]) / 2 + rad * dy, (a[1] + b[1]) / 2 - rad * dx)


def _bezier(a: Point, c: Point, b: Point, t: float) -> Point:
    s = 1 - t
    return (
        s * s * a[0] + 2 * s * t * c[0] + t * t * b[0],
        s * s * a[1] + 2 * s * t * c[1] + t * t * b[1],
    )


def _toward(p: Point, q: Point, dist: float) -> Point:
    d = math.dist(p, q) or 1.0
    return (p[0] + (q[0] - p[0]) * dist / d, p[1] + (q[1] - p[1]) * dist / d)


def _rad(u: str, v: str, pos: Mapping[str, Point], two_way: bool) -> float:
    """The least bend that keeps the edge 1.4 radii clear of every other node."""
    candidates = (PAIR_RAD, 0.35, 0.5) if two_way else (0.0, 0.2, -0.2, 0.35, -0.35, 0.5, -0.5)
    others = [p for n, p in pos.items() if n not in (u, v)]
    for rad in candidates:
        c = _control(pos[u], pos[v], rad)
        curve = [_bezier(pos[u], c, pos[v], i / 20) for i in range(2, 19)]
        if all(math.dist(p, o) > 1.4 * R for p in curve for o in others):
            return rad
    return candidates[-1]


def _arrow(ax: Axes, path: MplPath, p: float) -> None:
    ax.add_patch(
        FancyArrowPatch(
            path=path,
            arrowstyle="-|>",
            mutation_scale=10 + 6 * p,
            linewidth=0.6 + 4.5 * p,
            color="#3A3A3A",
            alpha=0.35 + 0.55 * p,
            zorder=1,
        )
    )


def _label(ax: Axes, at: Point, p: float) -> None:
    box = {"boxstyle": "round,pad=0.12", "fc": "white", "ec": "none", "alpha": 0.9}
    ax.text(*at, f"{p:.2f}", fontsize=7, ha="center", va="center", bbox=box, zorder=3)


def _clash(a: Point, b: Point) -> bool:
    # A label is about 0.55 x 0.25 data units: boxes closer than that overlap.
    return abs(a[0] - b[0]) < LABEL_W and abs(a[1] - b[1]) < LABEL_H


def _place_labels(ax: Axes, labels: Sequence[Label], pos: Mapping[str, Point]) -> None:
    """Greedy, most probable first: the first spot along the edge that overlaps no label
    placed so far and no node; failing that, the spot farthest from labels and nodes."""
    placed: list[Point] = []
    for spots, p in sorted(labels, key=lambda lab: -lab[1]):

        def free(at: Point) -> bool:
            near_node = any(math.dist(at, c) < R + LABEL_H for c in pos.values())
            return not near_node and not any(_clash(at, q) for q in placed)

        def room(at: Point) -> float:
            nodes = (math.dist(at, c) - R for c in pos.values())
            return min([*nodes, *(math.dist(at, q) for q in placed)])

        at = next((s for s in spots if free(s)), None) or max(spots, key=room)
        placed.append(at)
        _label(ax, at, p)


def _draw_edge(ax: Axes, graph: nx.DiGraph, u: str, v: str, pos: Mapping[str, Point]) -> Label:
    p = float(graph.edges[u, v]["probability"])
    rad = _rad(u, v, pos, graph.has_edge(v, u))
    c = _control(pos[u], pos[v], rad)
    a, b = _toward(pos[u], c, R), _toward(pos[v], c, R)
    _arrow(ax, MplPath([a, c, b], [MplPath.MOVETO, MplPath.CURVE3, MplPath.CURVE3]), p)
    return [_bezier(a, c, b, t) for t in LABEL_TS], p


def _draw_loop(ax: Axes, node: str, p: float, center: Point) -> Label:
    """A teardrop leaving and re-entering the node on the side given by `LOOP_ANGLE`."""
    angle = math.radians(LOOP_ANGLE.get(node, 270.0))

    def at(offset_deg: float, dist: float) -> Point:
        t = angle + math.radians(offset_deg)
        return (center[0] + dist * math.cos(t), center[1] + dist * math.sin(t))

    verts = [at(-24, R), at(-30, 2.7 * R), at(30, 2.7 * R), at(24, R)]
    _arrow(ax, MplPath(verts, [MplPath.MOVETO, *[MplPath.CURVE4] * 3]), p)
    # Just past the loop's tip (about 2 R out), by the label's half-extent that way.
    half = abs(math.cos(angle)) * LABEL_W / 2 + abs(math.sin(angle)) * LABEL_H / 2
    return [at(0, 2.05 * R + half), at(0, 2.6 * R + half)], p


def _draw_nodes(
    ax: Axes, graph: nx.DiGraph, nodes: Sequence[str], pos: Mapping[str, Point]
) -> None:
    colors = node_colors(nodes)
    for node in nodes:
        used = graph.has_node(node) and (graph.degree(node) > 0 or node in RESERVED)
        alpha = 1.0 if used else 0.25
        circle = Circle(pos[node], R, fc=colors[node], ec="#333333", alpha=alpha, zorder=2)
        ax.add_patch(circle)
        size = 8 if len(node) <= 7 else 6.2
        ax.text(*pos[node], node, fontsize=size, ha="center", va="center", alpha=alpha, zorder=3)


def _draw_panel(ax: Axes, system: str, graph: nx.DiGraph, nodes: Sequence[str]) -> None:
    pos = positions(nodes)
    _draw_nodes(ax, graph, nodes, pos)
    labels = [
        _draw_loop(ax, u, float(graph.edges[u, v]["probability"]), pos[u])
        if u == v
        else _draw_edge(ax, graph, u, v, pos)
        for u, v in graph.edges
    ]
    _place_labels(ax, labels, pos)
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    # Room for the self-loops (up, down, right of recommend) and their labels.
    ax.set_xlim(min(xs) - 1.4 * R, max(xs) + 1.4 * R)
    ax.set_ylim(min(ys) - 3.4 * R, max(ys) + 3.4 * R)
    ax.set_aspect("equal")
    ax.set_title(system, fontsize=11)
    ax.axis("off")


@plain_text
def transition_figure(graphs: Mapping[str, nx.DiGraph]) -> Figure:
    """The figure of `plot_transition_graphs`, for inspection."""
    nodes = act_order({*PAPER_ACTS, *RESERVED, *(n for g in graphs.values() for n in g.nodes)})
    n = max(len(graphs), 1)
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    extra_row = any(node not in FIXED_POS for node in nodes)
    fig = Figure(figsize=(5.4 * cols, (5.6 + 1.2 * extra_row) * rows))
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    for ax, (system, graph) in zip(axes, graphs.items(), strict=False):
        _draw_panel(ax, system, graph, nodes)
    for ax in axes[len(graphs) :]:
        ax.axis("off")
    fig.suptitle("Dialogue-act transitions", fontsize=13)
    return fig


def plot_transition_graphs(graphs: Mapping[str, nx.DiGraph], path: Path) -> Path:
    """Save one panel per system (keys are the titles) as a PNG at `path` (which must end in
    .png; written atomically); return it."""
    return save_png_atomic(transition_figure(graphs), path, dpi=DPI)
