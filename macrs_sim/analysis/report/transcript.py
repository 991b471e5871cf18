"""Case studies (paper Figure 7): a dialogue as a readable transcript, from the store alone.

Each turn shows the act, the text, the recommended titles with their grounding, and
whether the user accepted. With `explain=True` it adds what MACRS did to get
there: the three candidate replies, the planner's reasoning, the user profile,
and the strategy-level suggestions and experiences in force.

Everything a model, a server or the dataset wrote (texts, titles, acts, errors, explain
values) goes in through macrs_sim/textsafe.py: shown as typed, never markup.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import DialogueResult, Exchange, ItemRef, Sample
from macrs_sim.textsafe import markdown_cell as md
from macrs_sim.textsafe import markdown_paragraph

ACCEPT_MARK = "✅ accepted"
REJECT_MARK = "❌ not accepted"


def _item(ref: ItemRef, target_id: str) -> str:
    where = f"{md(ref.item_id)}, {ref.method} {ref.score:.2f}" if ref.item_id else "not in catalog"
    star = " ← target" if ref.item_id == target_id else ""
    return f"{md(ref.title)} ({where}){star}"


def _quote(text: str, suffix: str = "") -> str:
    """`text` (outside text) as a Markdown quote, then `suffix` (our own Markdown)."""
    shown = (markdown_paragraph(text) + suffix).strip() or "(empty)"
    return "\n".join("> " + line for line in shown.split("\n"))


def _mapping(value: object) -> Mapping[str, Any]:
    """`value` when it is a mapping: explain is each system's own (InteRecAgent's
    `candidates` is a count, MACRS's a mapping of act to candidate), and a store may be
    damaged; a shape this view does not know is left out, never a crash."""
    return value if isinstance(value, Mapping) else {}


def _explain_lines(explain: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for act, cand in _mapping(explain.get("candidates")).items():
        cand = _mapping(cand)
        title = f" [{md(str(cand['item_title']))}]" if cand.get("item_title") else ""
        lines.append(f"  - candidate *{md(str(act))}*{title}: {md(str(cand.get('text', '')))}")
    planner = _mapping(explain.get("planner"))
    if planner:
        steps = "; ".join(f"{md(k)}: {md(str(v))}" for k, v in planner.items() if k != "choice")
        lines.append(f"  - planner chose *{md(str(planner.get('choice')))}* ({steps})")
    if explain.get("profile"):
        profile = json.dumps(explain["profile"], ensure_ascii=False)
        lines.append(f"  - user profile: {md(profile)}")
    for act, text in _mapping(explain.get("suggestions")).items():
        lines.append(f"  - suggestion for {md(str(act))}: {md(str(text))}")
    experiences = explain.get("experiences")
    for text in experiences if isinstance(experiences, list) else []:
        lines.append(f"  - planner experience: {md(str(text))}")
    return lines


def _turn(ex: Exchange, target_id: str, explain: bool) -> list[str]:
    lines = [f"**Turn {ex.turn} · {md(ex.system.act)}**", "", _quote(ex.system.text), ""]
    if ex.system.items:
        items = ", ".join(_item(r, target_id) for r in ex.system.items)
        mark = ACCEPT_MARK if ex.user.accepted else REJECT_MARK
        lines += [f"Recommended: {items} — {mark}", ""]
    if explain and ex.system.explain:
        lines += ["<details><summary>how the system decided</summary>", ""]
        lines += [*_explain_lines(ex.system.explain), "", "</details>", ""]
    redacted = " *(redacted by the leak guard)*" if ex.user.redacted else ""
    return lines + ["User:", "", _quote(ex.user.text, redacted), ""]


def render_transcript(
    result: DialogueResult,
    sample: Sample | None = None,
    catalog: Catalog | None = None,
    *,
    explain: bool = False,
) -> str:
    target = result.target_id
    if catalog is not None and target in catalog:
        target = f"{catalog[target].display_title} ({result.target_id})"
    target = md(target)
    outcome = {
        "success": f"SUCCESS at turn {result.success_turn}",
        "failure": "FAIL",
        "error": f"ERROR: {md(str(result.error))}",
    }[result.status]
    heading = f"### {md(result.system)} · {md(result.sample_id)} · {outcome}"
    lines = [heading, "", f"Target: {target}"]
    if sample is not None and sample.target_profile:
        lines.append(
            "Target profile (all the simulated user knows): " + md(", ".join(sample.target_profile))
        )
    lines += ["", "User (opening):", "", _quote(result.opening.text), ""]
    for ex in result.exchanges:
        lines += _turn(ex, result.target_id, explain)
    if result.final_list:
        lines.append(f"Fallback top-{len(result.final_list)} list (turn {result.max_turns + 1}):")
        lines += [f"{i}. {_item(r, result.target_id)}" for i, r in enumerate(result.final_list, 1)]
        lines.append("")
    return "\n".join(lines)


def pick_case_ids(dialogues: pd.DataFrame, systems: Sequence[str]) -> list[str]:
    """pick_case_studies over a `dialogues` frame: the ids of the dialogues it would pick."""
    frame = dialogues[["dialogue_id", "system", "sample_id", "status"]].map(str)  # as str(x)
    # Each system's last dialogue of each sample; the first sample (sorted) where several
    # systems ended differently. Counted by pandas: no dict a sample, at any size of run.
    last = frame.drop_duplicates(["sample_id", "system"], keep="last")
    per_sample = last.groupby("sample_id", sort=True).agg(
        systems=("system", "size"), statuses=("status", "nunique")
    )
    differ = per_sample.index[(per_sample["systems"] > 1) & (per_sample["statuses"] > 1)]
    if len(differ):
        group = last[last["sample_id"] == differ[0]]
        found = dict(zip(group["system"], group["dialogue_id"], strict=True))
        return [found[s] for s in systems if s in found]
    picked: list[str] = []
    for system in systems:
        own = frame[frame["system"] == system]
        success = own[own["status"] == "success"]
        if len(success) or len(own):
            picked.append(str((success if len(success) else own)["dialogue_id"].iloc[0]))
    return picked


def pick_case_studies(
    results: Sequence[DialogueResult], systems: Sequence[str]
) -> list[DialogueResult]:
    """Like Figure 7: the first sample on which the systems' outcomes differ, all its dialogues.

    Falls back to each system's first success, else its first dialogue.
    """
    by_sample: dict[str, dict[str, DialogueResult]] = {}
    for r in results:
        by_sample.setdefault(r.sample_id, {})[r.system] = r
    for sample_id in sorted(by_sample):
        group = by_sample[sample_id]
        if len(group) > 1 and len({r.status for r in group.values()}) > 1:
            return [group[s] for s in systems if s in group]
    picked: list[DialogueResult] = []
    for system in systems:
        own = [r for r in results if r.system == system]
        success = [r for r in own if r.status == "success"]
        if success or own:
            picked.append((success or own)[0])
    return picked
