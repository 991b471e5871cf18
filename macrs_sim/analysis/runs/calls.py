"""A comparison's LLM calls streamed into a CallTally, relabelled as `combine_runs` relabels
its frames (a system name shared by runs becomes "MACRS (run)", and so do its dialogue ids)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from macrs_sim.analysis.metrics.call_tally import Call, CallTally
from macrs_sim.analysis.runs.frames import iter_call_values
from macrs_sim.config import Price

if TYPE_CHECKING:
    from macrs_sim.analysis.runs.combine import Comparison


def _relabelled(values: tuple[Any, ...], names: Mapping[str, str]) -> Call:
    d, system, role, turn, model, prompt, completion, latency, cached, ok, _error = values
    label = names.get(system, system) if system is not None else None
    if label != system and system is not None:
        rest = d.split(":", 1)[1] if d is not None and ":" in d else None
        d = None if rest is None else f"{label}:{rest}"
    return Call(d, label, role, turn, model, prompt, completion, latency, cached, ok)


def turn_masks(cmp: Comparison) -> dict[str, int]:
    """Dialogue id -> a bit set of its stored turn numbers."""
    masks: dict[str, int] = {}
    for dialogue_id, turn in zip(cmp.turns["dialogue_id"], cmp.turns["turn"], strict=True):
        if int(turn) >= 0:
            masks[dialogue_id] = masks.get(dialogue_id, 0) | 1 << int(turn)
    return masks


def tally_calls(cmp: Comparison, prices: Mapping[str, Price] | None) -> CallTally:
    """Every run's calls, one at a time, into one tally (bounded memory at any size)."""
    systems = dict(zip(cmp.dialogues["dialogue_id"], cmp.dialogues["system"], strict=True))
    tally = CallTally(prices, systems, turn_masks(cmp))
    for run, names in zip(cmp.runs, cmp.results.labels, strict=True):
        with run.store() as store:
            for values in iter_call_values(store):
                tally.add(_relabelled(values, names))
    return tally
