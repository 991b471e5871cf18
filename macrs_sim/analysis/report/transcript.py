"""Case studies (paper Figure 7): a dialogue as a readable transcript, from the store alone.

Each turn shows the act, the text, the recommended titles with their grounding, and
whether the user accepted. With `explain=True` it adds what MACRS did to get
there: the three candidate replies, the planner's reasoning, the user profile,
and the strategy-level suggestions and experiences in force.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import DialogueResult, Exchange, ItemRef, Sample

ACCEPT_MARK = "✅ accepted"
REJECT_MARK = "❌ not accepted"


def _item(ref: ItemRef, target_id: str) -> str:
    where = f"{ref.item_id}, {ref.method} {ref.score:.2f}" if ref.item_id else "not in catalog"
    star = " ← target" if ref.item_id == target_id else ""
    return f"{ref.title} ({where}){star}"


def _quote(text: str) -> str:
    return "\n".join("> " + line for line in (text.strip() or "(empty)").splitlines())


def _explain_lines(explain: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for act, cand in explain.get("candidates", {}).items():
        title = f" [{cand['item_title']}]" if cand.get("item_title") else ""
        lines.append(f"  - candidate *{act}*{title}: {cand.get('text', '')}")
    planner = explain.get("planner")
    if planner:
        steps = "; ".join(f"{k}: {v}" for k, v in planner.items() if k != "choice")
        lines.append(f"  - planner chose *{planner.get('choice')}* ({steps})")
    if explain.get("profile"):
        lines.append(f"  - user profile: {json.dumps(explain['profile'], ensure_ascii=False)}")
    for act, text in explain.get("suggestions", {}).items():
        lines.append(f"  - suggestion for {act}: {text}")
    for text in explain.get("experiences", []):
        lines.append(f"  - planner experience: {text}")
    return lines


def _turn(ex: Exchange, target_id: str, explain: bool) -> list[str]:
    lines = [f"**Turn {ex.turn} · {ex.system.act}**", "", _quote(ex.system.text), ""]
    if ex.system.items:
        items = ", ".join(_item(r, target_id) for r in ex.system.items)
        mark = ACCEPT_MARK if ex.user.accepted else REJECT_MARK
        lines += [f"Recommended: {items} — {mark}", ""]
    if explain and ex.system.explain:
        lines += ["<details><summary>how the system decided</summary>", ""]
        lines += [*_explain_lines(ex.system.explain), "", "</details>", ""]
    user = ex.user.text + (" *(redacted by the leak guard)*" if ex.user.redacted else "")
    return lines + ["User:", "", _quote(user), ""]


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
    outcome = {
        "success": f"SUCCESS at turn {result.success_turn}",
        "failure": "FAIL",
        "error": f"ERROR: {result.error}",
    }[result.status]
    lines = [f"### {result.system} · {result.sample_id} · {outcome}", "", f"Target: {target}"]
    if sample is not None and sample.target_profile:
        lines.append(
            f"Target profile (all the simulated user knows): {', '.join(sample.target_profile)}"
        )
    lines += ["", "User (opening):", "", _quote(result.opening.text), ""]
    for ex in result.exchanges:
        lines += _turn(ex, result.target_id, explain)
    if result.final_list:
        lines.append(f"Fallback top-{len(result.final_list)} list (turn {result.max_turns + 1}):")
        lines += [f"{i}. {_item(r, result.target_id)}" for i, r in enumerate(result.final_list, 1)]
        lines.append("")
    return "\n".join(lines)


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
