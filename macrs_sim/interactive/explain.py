"""A system turn's `explain` payload for the terminal (`macrs-sim chat --explain`).

MACRS's keys get their own layout: the three candidates with the chosen one marked, the
planner's reasoning and choice, the updated profile, strategy suggestions and
experiences. Any other key, and any other system's payload (a tool plan, scores), is
shown generically: a scalar as a row, a structure as a tree. Model text is always
`Text`, never markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

MACRS_KEYS = ("candidates", "planner", "profile", "suggestions", "experiences")


def render_explain(explain: Mapping[str, Any], chosen: str) -> RenderableType:
    if not explain:
        return Text("(this system explains nothing)", style="dim")
    parts: list[RenderableType] = []
    if "candidates" in explain:
        parts.append(candidates_table(explain["candidates"], chosen))
    rows = Table.grid(padding=(0, 2))
    rows.add_column(style="bold cyan", no_wrap=True)
    rows.add_column()
    if "planner" in explain:
        rows.add_row("planner", planner_text(explain["planner"]))
    if "profile" in explain:
        rows.add_row("profile", profile_text(explain["profile"]))
    if explain.get("suggestions"):
        rows.add_row("suggestions", pairs_text(explain["suggestions"]))
    if explain.get("experiences"):
        rows.add_row("experiences", lines_text(explain["experiences"]))
    trees: list[RenderableType] = []
    for key, value in explain.items():
        if key in MACRS_KEYS or value in (None, {}, [], ()):
            continue
        if isinstance(value, Mapping | list | tuple):
            trees.append(tree_of(value, str(key)))
        else:
            rows.add_row(str(key), Text(str(value)))
    if rows.row_count:
        parts.append(rows)
    return Group(*parts, *trees)


def candidates_table(candidates: Mapping[str, Any], chosen: str) -> Table:
    table = Table(title="candidates", title_justify="left", show_edge=False, pad_edge=False)
    for column in ("", "act", "reply", "item"):
        table.add_column(column)
    for act, cand in candidates.items():
        cand = cand if isinstance(cand, Mapping) else {"text": cand}
        mark = "→" if act == chosen else ""
        style = "bold" if act == chosen else ""
        table.add_row(
            mark,
            Text(str(act), style=style),
            Text(str(cand.get("text", "")), style=style),
            Text(str(cand.get("item_title") or "")),
        )
    return table


def planner_text(planner: Any) -> Text:
    if not isinstance(planner, Mapping):
        return Text(str(planner))
    text = Text()
    for key, value in planner.items():
        if key != "choice":
            text.append(f"{key}: ", style="dim").append(f"{value}\n")
    text.append("choice: ", style="dim").append(str(planner.get("choice", "?")), style="bold")
    return text


def profile_text(profile: Any) -> Text:
    if not isinstance(profile, Mapping):
        return Text(str(profile))
    demand = profile.get("current_demand") or []
    pairs = [f"{p.get('attribute')} = {p.get('value')}" for p in demand if isinstance(p, Mapping)]
    text = Text("; ".join(pairs) if pairs else "(no demand yet)")
    history = profile.get("browsing_history") or []
    if history:
        text.append("\nbrowsing history: ", style="dim").append(", ".join(map(str, history)))
    return text


def pairs_text(pairs: Any) -> Text:
    if not isinstance(pairs, Mapping):
        return lines_text(pairs)
    text = Text()
    for i, (key, value) in enumerate(pairs.items()):
        text.append("\n" if i else "").append(f"{key}: ", style="dim").append(str(value))
    return text


def lines_text(lines: Any) -> Text:
    items = lines if isinstance(lines, list | tuple) else [lines]
    return Text("\n".join(f"• {line}" for line in items))


def tree_of(value: Any, label: str) -> Tree:
    """Any JSON-like value as a tree: a key per branch, scalars as 'key: value' leaves."""
    tree = Tree(Text(label, style="bold cyan"))
    _grow(tree, value)
    return tree


def _grow(node: Tree, value: Any) -> None:
    entries = value.items() if isinstance(value, Mapping) else enumerate(value, start=1)
    for key, child in entries:
        if isinstance(child, Mapping | list | tuple) and child:
            _grow(node.add(Text(str(key), style="cyan")), child)
        else:
            node.add(Text(f"{key}: ", style="cyan").append(str(child), style="default"))
