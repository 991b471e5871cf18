"""Title grounding: precision and recall on labelled cases, and speed on a big catalog; JSON.

Quality: tests/data/grounding/cases.jsonl (shared with tests/data/grounding/
test_grounding_cases.py) over the demo catalog and a MovieLens-format fixture
(tests/data/grounding/ml_movies.csv with interaction counts in ml_counts.csv).
Precision is the share of returned ids that are the right film; recall the share of
films the catalog has that were found. Most categories are written by hand (sequels,
remakes, subtitles, foreign titles, decorations, absent films...); "generated_variant"
and "generated_misspelling" are mechanical: every catalog title once in a model-style
form, and one swap of neighbouring letters in the longest word of some titles.

Other domains: tests/data/grounding/domains (hand-written products, businesses and games,
adversarial cases), precision and recall per domain.

Leak guard: the simulated user's title guard on tests/simulators/leak_cases.jsonl (shorter
names that ground to the target both ways: main parts, subtitles, aliases, number spellings
against other instalments, franchise names and everyday phrases), precision and recall of
"names the target", beside a guard of the full title alone.

Speed: a synthetic catalog (default 60,000 items: made-up words, sequels, subtitles,
remakes) and a query mix as a model produces it: display titles, bare titles,
decorated titles, misspellings, sequel numbers the catalog lacks, absent titles.

    python benchmarks/bench_grounding.py [--items 60000] [--queries 20000] [--seed 7] [--quality]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder, grounder_for
from macrs_sim.data.grounding.evaluate import (
    domain_catalogs,
    evaluate,
    load_cases,
    movielens_fixture,
)
from macrs_sim.protocol import Item
from macrs_sim.simulators.leak_guard import LeakGuard
from macrs_sim.simulators.target_profile import title_guard

CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "grounding"
SYLLABLES = [c + v for c in "bcdfghklmnprstvz" for v in ("a", "e", "i", "o", "u", "ai", "ou")]
SEQUEL_FORMS = ["{} 2", "{} II", "{}: Part III", "{} 4", "{}: Chapter Two"]


def quality() -> dict[str, object]:
    ml, counts = movielens_fixture(CASES / "ml_movies.csv", CASES / "ml_counts.csv")
    demo = Catalog.demo()
    cases = load_cases(CASES / "cases.jsonl", {"demo": demo, "movielens": ml})
    grounders = {"demo": Grounder(demo), "movielens": Grounder(ml, popularity=counts)}
    tallies = evaluate(cases, grounders)
    overall = tallies.pop("all")
    return {
        "cases": overall.cases,
        "precision": overall.precision,
        "recall": overall.recall,
        "mistakes": overall.mistakes,
        "by_category": {name: t.as_dict() for name, t in sorted(tallies.items())},
    }


def domain_quality() -> dict[str, object]:
    """Per domain of tests/data/grounding/domains (products, businesses, games): the
    adversarial cases (same brand other product, same product other size, a brand alone,
    a chain's name without its city) through the grounder each domain's policy picks."""
    catalogs = domain_catalogs(CASES / "domains")
    cases = load_cases(CASES / "domains" / "cases.jsonl", {k: c for k, (c, _) in catalogs.items()})
    out: dict[str, object] = {}
    for name, (catalog, domain) in catalogs.items():
        tallies = evaluate(
            [c for c in cases if c.catalog == name], {name: grounder_for(catalog, domain)}
        )
        overall = tallies.pop("all")
        out[name] = {
            "grounder": domain.grounding.matcher,
            "cases": overall.cases,
            "precision": overall.precision,
            "recall": overall.recall,
            "mistakes": overall.mistakes,
            "by_category": {k: t.as_dict() for k, t in sorted(tallies.items())},
        }
    return out


def _tally(outcomes: list[tuple[bool, bool]]) -> dict[str, object]:
    """(predicted, truth) pairs -> precision and recall of "leaks"."""
    tp = sum(p and t for p, t in outcomes)
    fp = sum(p and not t for p, t in outcomes)
    fn = sum(t and not p for p, t in outcomes)
    return {
        "cases": len(outcomes),
        "precision": round(tp / (tp + fp), 3) if tp + fp else None,
        "recall": round(tp / (tp + fn), 3) if tp + fn else None,
        "false_positives": fp,
        "false_negatives": fn,
    }


def leak_guard_quality() -> dict[str, object]:
    """The simulator's title guard (target_profile.title_guard) on the hand-written
    adversarial leak cases (tests/simulators/leak_cases.jsonl): shorter names that ground to
    the target must be caught, other instalments, franchise names and everyday phrases must
    not. "titles_only" is a guard of the full title alone, for comparison."""
    path = CASES.parent.parent / "simulators" / "leak_cases.jsonl"
    cases = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    guarded: list[tuple[bool, bool]] = []
    plain: list[tuple[bool, bool]] = []
    by_category: dict[str, list[tuple[bool, bool]]] = {}
    mistakes: list[str] = []
    for case in cases:
        item = Item(item_id="t", title=case["target"], year=case["year"])
        said, truth = case["text"], bool(case["leak"])
        got = title_guard(item).leaks(said)
        guarded.append((got, truth))
        plain.append((LeakGuard(item.title).leaks(said), truth))
        by_category.setdefault(case["category"], []).append((got, truth))
        if got != truth:
            mistakes.append(f"{case['target']}: {said!r} -> {got}")
    return {
        **_tally(guarded),
        "mistakes": mistakes,
        "titles_only": _tally(plain),
        "by_category": {k: _tally(v) for k, v in sorted(by_category.items())},
    }


def word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


def title(rng: random.Random) -> str:
    text = " ".join(word(rng) for _ in range(rng.randint(1, 4))).title()
    if rng.random() < 0.15:
        text += ": " + " ".join(word(rng) for _ in range(rng.randint(1, 3))).title()
    return text


def synthetic_catalog(n: int, rng: random.Random) -> Catalog:
    items: list[Item] = []
    while len(items) < n:
        base, year = title(rng), rng.randint(1920, 2024)
        items.append(Item(item_id=f"s{len(items)}", title=base, year=year))
        roll = rng.random()
        if roll < 0.08:  # a sequel
            form = rng.choice(SEQUEL_FORMS)
            items.append(Item(item_id=f"s{len(items)}", title=form.format(base), year=year + 3))
        elif roll < 0.12:  # a remake
            items.append(Item(item_id=f"s{len(items)}", title=base, year=year + 20))
    return Catalog(items[:n])


def misspell(text: str, rng: random.Random) -> str:
    words = text.split()
    k = max(range(len(words)), key=lambda i: len(words[i]))
    w = words[k]
    if len(w) >= 6:
        i = rng.randint(2, len(w) - 3)
        words[k] = w[:i] + w[i + 1] + w[i] + w[i + 2 :]
    return " ".join(words)


def queries(catalog: Catalog, n: int, rng: random.Random) -> dict[str, list[str]]:
    items = list(catalog)
    picks = [rng.choice(items) for _ in range(n)]
    kinds: dict[str, Callable[[Item], str]] = {
        "display_title": lambda i: i.display_title,
        "bare_lowercase": lambda i: i.title.lower(),
        "decorated": lambda i: f"**{i.title}** ({i.year}) - a film",
        "misspelled": lambda i: misspell(i.title, rng),
        "missing_sequel": lambda i: f"{i.title} 7",
        "absent": lambda i: title(rng),
    }
    share = n // len(kinds)
    return {kind: [make(i) for i in picks[:share]] for kind, make in kinds.items()}


def speed(n_items: int, n_queries: int, seed: int) -> dict[str, object]:
    """Wall-clock rates, and rates per CPU second: on a shared machine the second is the
    grounder's own cost, the first also the wait for a core."""
    rng = random.Random(seed)
    catalog = synthetic_catalog(n_items, rng)
    start = time.perf_counter()
    grounder = Grounder(catalog)
    build_s = time.perf_counter() - start
    wall: dict[str, float] = {}
    cpu: dict[str, float] = {}
    for kind, said in queries(catalog, n_queries, rng).items():
        start, start_cpu = time.perf_counter(), time.process_time()
        for text in said:
            grounder.ground(text)
        wall[kind] = len(said) / (time.perf_counter() - start)
        cpu[kind] = len(said) / max(time.process_time() - start_cpu, 1e-9)
    share = n_queries // len(wall)

    def overall(rates: dict[str, float]) -> int:
        return round(share * len(rates) / sum(share / r for r in rates.values()))

    return {
        "catalog_items": len(catalog),
        "index_build_s": round(build_s, 2),
        "queries": share * len(wall),
        "groundings_per_s": overall(wall),
        "groundings_per_cpu_s": overall(cpu),
        "groundings_per_s_by_kind": {k: round(v) for k, v in wall.items()},
        "groundings_per_cpu_s_by_kind": {k: round(v) for k, v in cpu.items()},
        "load_average_1min": round(os.getloadavg()[0], 1),
        "cpu_count": os.cpu_count(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=60_000)
    parser.add_argument("--queries", type=int, default=24_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quality", action="store_true", help="skip the speed part")
    args = parser.parse_args()
    result: dict[str, object] = {
        "quality": quality(),
        "domains": domain_quality(),
        "leak_guard": leak_guard_quality(),
    }
    if not args.quality:
        result["speed"] = speed(args.items, args.queries, args.seed)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
