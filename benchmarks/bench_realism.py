"""`macrs-sim realism` over a run of N dialogues and a corpus of N conversations; JSON.

The run is a real scripted campaign of --base dialogues (agenda users, demo data) grown to N
with bench_scale's copy (the same dialogues under new ids); the corpus is N synthetic
conversations in ReDial's distributed form (seeded, made here: no real corpus rows). For
each N the command runs as a child and its wall, CPU and peak RSS are its own rusage: a
peak that does not grow with N is the bounded memory the realism report promises (every
side keeps at most --sample dialogues' measures; the rest is streamed).

    python benchmarks/bench_realism.py [--sizes 10000,100000] [--base 500] [--draws 200]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benchmarks beside this one
from bench_scale import campaign, grow, measure  # noqa: E402

_TITLES = {"135": "Heat (1995)", "137": "Toy Story (1995)", "80": "Alien (1979)"}
_SEEKER = (
    "Hi! I am looking for a {g} movie, something like @{m}.",
    "I have seen @{m} already, anything else?",
    "I love {g} films, especially from the {d}s.",
    "Thanks, I will check out @{m}!",
    "Not really my thing, I prefer {g}. Word {w}.",
)
_RECOMMENDER = ("Have you seen @{m}?", "You might like @{m}, it is {g}.", "What genre do you like?")
_GENRES = ("comedy", "horror", "action", "drama", "romantic", "sci-fi", "crime", "family")


def _message(rng: random.Random, who: int, texts: tuple[str, ...]) -> dict[str, Any]:
    text = rng.choice(texts).format(
        g=rng.choice(_GENRES), m=rng.choice(list(_TITLES)), d=rng.choice((70, 80, 90)),
        w=rng.randrange(10_000),
    )  # fmt: skip
    return {"timeOffset": 0, "text": text, "senderWorkerId": who, "messageId": 0}


def conversation(rng: random.Random, k: int) -> dict[str, Any]:
    messages = [
        _message(rng, 1 if i % 2 == 0 else 2, _SEEKER if i % 2 == 0 else _RECOMMENDER)
        for i in range(rng.randrange(6, 20))
    ]
    answers = {m: {"suggested": 1, "seen": 0, "liked": rng.choice((0, 1, 1, 2))} for m in _TITLES}
    return {
        "movieMentions": _TITLES, "respondentQuestions": answers, "messages": messages,
        "conversationId": str(k), "respondentWorkerId": 2, "initiatorWorkerId": 1,
        "initiatorQuestions": answers,
    }  # fmt: skip


def write_corpus(path: Path, n: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for k in range(n):
            out.write(json.dumps(conversation(rng, k)) + "\n")
    return path


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--base", type=int, default=500)
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=64)
    opts = parser.parse_args(argv)
    out: dict[str, Any] = {"base": opts.base, "draws": opts.draws, "sizes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        base, figures = campaign(opts.base, work / "base", opts)
        if base is None:
            raise SystemExit(f"the base campaign failed: {figures}")
        for n in (int(s) for s in opts.sizes.split(",")):
            run = grow(base, work / f"run-{n}", n)
            corpus = write_corpus(work / f"corpus-{n}.jsonl", n)
            args = ["realism", str(run), "--reference", str(corpus), "--draws", str(opts.draws)]
            record = measure([*args, "--out", str(work / f"out-{n}")], work, None)
            record["corpus_mib"] = round(corpus.stat().st_size / 2**20, 1)
            out["sizes"][str(n)] = record
            print(json.dumps({n: record}), file=sys.stderr)
    print(json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
