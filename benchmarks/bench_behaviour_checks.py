"""Behaviour checks (echo, refusal, repeat, ...): precision and recall on labelled turns; JSON.

benchmarks/data/behaviour_turns.json holds hand-written turns, each labelled for one check
(true: the check should fire), most of them adversarial: agreements that share words with
the question, apologies that are no refusal, natural declines that share words with the
simulator's prompt, answers that name a genre only to reject it. Each detector runs on the
cases of its own check; tests/analysis/test_behaviour_bench.py keeps the file and the
detectors in step.

    python benchmarks/bench_behaviour_checks.py [--cases benchmarks/data/behaviour_turns.json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from macrs_sim.analysis.metrics import behaviour_text as bt
from macrs_sim.analysis.metrics.behaviour import simulator_ngrams
from macrs_sim.data.attributes import ItemAttributes

CASES = Path(__file__).parent / "data" / "behaviour_turns.json"
Case = dict[str, Any]


def _off(c: Case) -> bool:
    target = ItemAttributes(tuple(c["genres"]), c["year"], ())
    return bt.is_off_profile(c["question"], c["text"], target)


DETECTORS: dict[str, Callable[[Case], bool]] = {
    "echo": lambda c: bt.similar(c["text"], c["other"]),
    "refusal": lambda c: bt.is_refusal(c["text"]),
    "repeat": lambda c: any(bt.similar(c["text"], e) for e in c["earlier"]),
    "instruction_echo": lambda c: bt.copies_instructions(c["text"], simulator_ngrams()),
    "profile_dump": lambda c: bt.is_profile_dump(c["text"], tuple(c["profile"])),
    "off_profile": _off,
    "truncated": lambda c: bt.is_truncated(c["text"]) if c["text"].strip() else False,
    "empty": lambda c: bt.is_empty(c["text"]),
}


def score(cases: list[Case]) -> dict[str, dict[str, Any]]:
    """Per check: cases, tp, fp, fn, precision, recall (None with nothing to divide), misses."""
    out: dict[str, dict[str, Any]] = {}
    for check, detect in DETECTORS.items():
        mine = [c for c in cases if c["check"] == check]
        said = [(bool(c["label"]), detect(c), c) for c in mine]
        tp = sum(lab and got for lab, got, _ in said)
        fp = sum(got and not lab for lab, got, _ in said)
        fn = sum(lab and not got for lab, got, _ in said)
        out[check] = {
            "cases": len(mine),
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "precision": tp / (tp + fp) if tp + fp else None,
            "recall": tp / (tp + fn) if tp + fn else None,
            "wrong": [c["text"] for lab, got, c in said if lab != got],
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    args = parser.parse_args()
    cases = json.loads(args.cases.read_text(encoding="utf-8"))["cases"]
    print(json.dumps(score(cases), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
