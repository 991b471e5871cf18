"""The pairs of the suggestion judge, read from a run store, and the judgments stored back.

A pair is a MACRS turn whose chosen act had a strategy-level suggestion; it carries
the inputs that act's responder saw (D_h, U_p), rebuilt from the stored turn, so
the no-suggestion counterfactual can be generated from exactly the same memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from macrs_sim.agents.macrs.schemas import UserProfile
from macrs_sim.errors import ConfigError, DataError
from macrs_sim.judge.prompts import responder_prompt_name
from macrs_sim.judge.schemas import JUDGMENT_EVENT, JudgePair, JudgeRecord
from macrs_sim.prompts import PromptLayout, PromptLibrary
from macrs_sim.protocol import DialogueResult, DialogueState, Exchange
from macrs_sim.store import STORE_FILE, RunStore


def _order(p: JudgePair | JudgeRecord) -> tuple[str, str, int]:
    return (p.sample_id, p.system, p.turn)


def _pair(result: DialogueResult, index: int) -> JudgePair | None:
    ex: Exchange = result.exchanges[index]
    explain = ex.system.explain
    suggestion = str(explain.get("suggestions", {}).get(ex.system.act, ""))
    if not suggestion.strip():  # the responder rendered a blank suggestion as "(none)"
        return None
    if "profile" not in explain:
        raise DataError(f"{result.dialogue_id} turn {ex.turn}: explain has no profile")
    # The same `utterances()` the system was given at this turn: D_h exactly as it saw it.
    state = DialogueState(
        dialogue_id=result.dialogue_id, opening=result.opening, exchanges=result.exchanges[:index]
    )
    return JudgePair(
        dialogue_id=result.dialogue_id,
        system=result.system,
        sample_id=result.sample_id,
        turn=ex.turn,
        act=ex.system.act,
        suggestion=suggestion,
        with_suggestion=ex.system.text,
        with_item_title=ex.system.items[0].title if ex.system.items else None,
        history=tuple(state.utterances()),
        # Recorded after the planner from the same memory the responders read: U_p as seen.
        profile=UserProfile.model_validate(explain["profile"]),
    )


def find_pairs(results: Iterable[DialogueResult]) -> list[JudgePair]:
    """Every turn whose chosen act had a non-empty suggestion, by sample, system, turn.

    Sample-major order, so a `max_pairs` budget compares systems on the same samples.
    """
    pairs = [p for r in results for i in range(len(r.exchanges)) if (p := _pair(r, i))]
    return sorted(pairs, key=_order)


def check_prompts(meta: dict[str, str], prompts: PromptLibrary, acts: Iterable[str]) -> None:
    """Refuse a responder template other than the run's: the counterfactual would differ."""
    used: dict[str, str] = json.loads(meta.get("prompt_sha256", "{}"))
    for name in sorted({responder_prompt_name(a) for a in acts}):
        current = prompts.get(name).sha256  # loads it: a missing template fails here, once
        if name in used and used[name] != current:
            raise ConfigError(
                f"prompt '{name}' is not the one the run used; "
                "pass a PromptLibrary with the run's prompts_dir"
            )


# The store meta key of each system's prompt layout (campaign/resume.py writes it; the same
# name as analysis.runs.access.LAYOUT_META, which the judge may not import).
LAYOUT_META = "prompt_layouts"


def run_layouts(meta: dict[str, str]) -> dict[str, PromptLayout]:
    """System name -> the layout its prompts used in the run; empty for an older run."""
    raw = json.loads(meta.get(LAYOUT_META, "{}") or "{}")
    if not isinstance(raw, dict):
        raise DataError(f"run meta {LAYOUT_META!r} is not a JSON object")
    return {str(k): v for k, v in raw.items() if v in ("paper", "chat")}


def with_run_layouts(pairs: list[JudgePair], meta: dict[str, str]) -> list[JudgePair]:
    """Each pair with the layout its system ran in, where the run recorded one."""
    layouts = run_layouts(meta)
    return [
        p.model_copy(update={"layout": layouts[p.system]}) if p.system in layouts else p
        for p in pairs
    ]


def store_path(run_dir: Path | str) -> Path:
    path = Path(run_dir)
    return path if path.name == STORE_FILE else path / STORE_FILE


def read_judgments(source: RunStore | Path | str) -> list[JudgeRecord]:
    """The latest record of each judged pair (a retried failure replaces its error), in
    `find_pairs` order: concurrent judging stores them in completion order."""
    if not isinstance(source, RunStore):
        with RunStore.open(store_path(source)) as store:
            return read_judgments(store)
    latest: dict[tuple[str, int], JudgeRecord] = {}
    for event in source.read_events(JUDGMENT_EVENT):
        record = JudgeRecord.model_validate(event.payload)
        latest[record.key] = record
    return sorted(latest.values(), key=_order)
