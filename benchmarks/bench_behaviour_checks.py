"""Behaviour checks (echo, refusal, repeat, ...): precision and recall on labelled turns; JSON.

benchmarks/data/behaviour_turns.json holds hand-written turns, each labelled for one check
(true: the check should fire), most of them adversarial: agreements that share words with
the question, apologies that are no refusal, natural declines that share words with the
simulator's prompt, answers that name a genre only to reject it. Each detector runs on the
cases of its own check; tests/analysis/test_behaviour_bench.py keeps the file and the
detectors in step.

With --corpus (a human conversational-recommendation corpus the user points to, ReDial's
*_data.jsonl or the turns form; never shipped) every seeker's turn is a negative: each
check's false-positive rate on real people's words is printed beside precision and recall
(echo: against the recommender's turn before; repeat: the seeker's earlier turns; profile
dump: a stand-in profile of the sought item when the demo catalog has it, in the target
profile's "attribute: value" form: its genres, director, two leading actors, two keywords).

    python benchmarks/bench_behaviour_checks.py [--cases benchmarks/data/behaviour_turns.json]
        [--corpus train_data.jsonl]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from macrs_sim.analysis.metrics import behaviour_text as bt
from macrs_sim.analysis.metrics.behaviour import simulator_ngrams
from macrs_sim.data.attributes import ItemAttributes
from macrs_sim.data.corpora import CorpusDialogue, CorpusStats, read_corpus
from macrs_sim.protocol import Item

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


def stand_in_profile(item: Item) -> tuple[str, ...]:
    people = [f"director: {d}" for d in item.attribute("director")[:1]]
    people += [f"actor: {a}" for a in item.cast[:2]]
    return (*(f"genre: {g}" for g in item.genres), *people, *item.keywords[:2])


def _seeker_flags(
    dialogue: CorpusDialogue, resolve: Callable[[str], Item | None]
) -> Iterator[tuple[str, str]]:
    """(check, text) for every check a seeker's turn fails; ("turns", "") once a turn."""
    grams = simulator_ngrams()
    sought = resolve(dialogue.sought) if dialogue.sought else None
    profile = stand_in_profile(sought) if sought else ()
    before: str | None = None
    earlier: list[str] = []
    for turn in dialogue.turns:
        if turn.speaker == "recommender":
            before = turn.text
            continue
        text = turn.text
        yield "turns", ""
        yield from ((c, text) for c, hit in (
            ("refusal", bt.is_refusal(text)),
            ("instruction_echo", bt.copies_instructions(text, grams)),
            ("echo", before is not None and bt.similar(text, before)),
            ("repeat", any(bt.similar(text, e) for e in earlier)),
            ("profile_dump", bool(profile) and bt.is_profile_dump(text, profile)),
            ("truncated", bt.is_truncated(text)),
        ) if hit)  # fmt: skip
        if profile:
            yield "profiled", ""
        earlier.append(text)


def corpus_false_positives(path: Path, examples: int = 5) -> dict[str, Any]:
    """Each check's share of real seekers' turns it flags (all are negatives)."""
    from macrs_sim.analysis.realism.collect import resolver
    from macrs_sim.data.catalog import Catalog

    resolve, stats = resolver(Catalog.demo()), CorpusStats()
    counts: Counter[str] = Counter()
    shown: dict[str, list[str]] = {}
    for dialogue in read_corpus(path, stats):
        for check, text in _seeker_flags(dialogue, resolve):
            counts[check] += 1
            if text and len(shown.setdefault(check, [])) < examples:
                shown[check].append(text)
    out: dict[str, Any] = {
        "corpus": path.name,
        "read": stats.summary(),
        "seeker_turns": counts["turns"],
    }
    for check in ("refusal", "instruction_echo", "echo", "repeat", "profile_dump", "truncated"):
        n = counts["profiled"] if check == "profile_dump" else counts["turns"]
        rate = counts[check] / n if n else None
        out[check] = {"turns": n, "flagged": counts[check], "fp_rate": rate}
        out[check]["examples"] = shown.get(check, [])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--corpus", type=Path, help="a human corpus file (never shipped)")
    args = parser.parse_args()
    cases = json.loads(args.cases.read_text(encoding="utf-8"))["cases"]
    out: dict[str, Any] = {"adversarial": score(cases)}
    if args.corpus:
        out["real_seekers"] = corpus_false_positives(args.corpus)
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
