"""The Table 2 shape: per model Recall@K and NDCG@K, mean ± std over the seeds' samples;
written as CSV and JSON (whole or not at all), and the loop statistics (paper Fig. 5)."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from macrs_sim.analysis.atomic import write_text_atomic
from macrs_sim.evaluation.toolrec.llmrank import llmrank_stats
from macrs_sim.evaluation.toolrec.metrics import mean_std
from macrs_sim.evaluation.toolrec.run import Evaluation, LoopRecord, UserResult
from macrs_sim.protocol import Record

RESULTS_CSV, PER_SEED_CSV = "results.csv", "per_seed.csv"
RESULTS_JSON, LOOPS_JSONL = "results.json", "toolrec_loops.jsonl"
VARIANT_LOOPS_JSONL, LLMRANK_JSONL = "variant_loops.jsonl", "llmrank.jsonl"


class SeedRow(Record):
    model: str
    seed: int
    n_users: int
    recall: float
    ndcg: float


class SummaryRow(Record):
    model: str
    recall_mean: float
    recall_std: float
    ndcg_mean: float
    ndcg_std: float
    seeds: int
    n_users: int


def per_seed(users: Sequence[UserResult], models: Sequence[str]) -> list[SeedRow]:
    """Each (model, seed): the means over that seed's sampled users."""
    rows = []
    for model in models:
        for seed in sorted({u.seed for u in users if u.model == model}):
            mine = [u for u in users if u.model == model and u.seed == seed]
            rows.append(SeedRow(model=model, seed=seed, n_users=len(mine),
                                recall=sum(u.recall for u in mine) / len(mine),
                                ndcg=sum(u.ndcg for u in mine) / len(mine)))  # fmt: skip
    return rows


def summarize(seeds: Sequence[SeedRow], models: Sequence[str]) -> list[SummaryRow]:
    """Mean ± sample std over the seeds' means (the paper's three trials)."""
    out = []
    for model in models:
        mine = [r for r in seeds if r.model == model]
        if not mine:
            continue
        recall, recall_std = mean_std([r.recall for r in mine])
        ndcg, ndcg_std = mean_std([r.ndcg for r in mine])
        out.append(SummaryRow(model=model, recall_mean=recall, recall_std=recall_std,
                              ndcg_mean=ndcg, ndcg_std=ndcg_std, seeds=len(mine),
                              n_users=sum(r.n_users for r in mine)))  # fmt: skip
    return out


def loop_stats(loops: Sequence[LoopRecord]) -> dict[str, Any]:
    """Termination rounds (all users, and users whose list holds the target), stop reasons."""
    ran = [r for r in loops if r.loop is not None]
    rounds = Counter(len(r.loop.rounds) for r in ran if r.loop is not None)
    hits = Counter(len(r.loop.rounds) for r in ran if r.loop is not None and r.target in r.final)
    stops = Counter(r.loop.stop for r in ran if r.loop is not None)
    tools = Counter(rd.tool for r in ran if r.loop is not None for rd in r.loop.rounds)
    n = max(len(ran), 1)
    return {
        "users": len(loops),
        "errors": len(loops) - len(ran),
        "termination_rounds": dict(sorted(rounds.items())),
        "hit_rounds": dict(sorted(hits.items())),
        "stops": dict(sorted(stops.items())),
        "actions": dict(sorted(tools.items())),
        "llm_calls_per_user": sum(r.loop.llm_calls for r in ran if r.loop) / n,
        "filled_per_user": sum(r.filled for r in ran) / n,
        "rank_reprompts": sum(rd.reprompts for r in ran if r.loop for rd in r.loop.rounds),
    }


def _jsonl(rows: Sequence[Record]) -> str:
    return "".join(r.model_dump_json() + "\n" for r in rows)


def _csv(rows: Sequence[Record]) -> str:
    buf = io.StringIO()
    flat = [r.model_dump(mode="json") for r in rows]
    writer = csv.DictWriter(buf, fieldnames=list(flat[0]) if flat else ["model"])
    writer.writeheader()
    writer.writerows(flat)
    return buf.getvalue()


def write_report(folder: Path, ev: Evaluation, header: dict[str, Any]) -> list[Path]:
    """results.csv, per_seed.csv, results.json and toolrec_loops.jsonl (variant_loops.jsonl
    and llmrank.jsonl with those rows); returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    seeds = per_seed(ev.users, ev.models)
    summary = summarize(seeds, ev.models)
    record = {**header, "retriever": ev.retriever, "sampled": ev.sampled, "training": ev.training,
              "toolrec_seconds": round(ev.toolrec_seconds, 3), "loops": loop_stats(ev.loops),
              "rows": ev.options, "results": [r.model_dump(mode="json") for r in summary],
              "per_seed": [r.model_dump(mode="json") for r in seeds]}  # fmt: skip
    names = [RESULTS_CSV, PER_SEED_CSV, RESULTS_JSON, LOOPS_JSONL]
    texts = [_csv(summary), _csv(seeds), "", _jsonl(ev.loops)]
    if ev.variant_loops:
        models = list(dict.fromkeys(r.model for r in ev.variant_loops))
        record["variant_loops"] = {m: loop_stats([r for r in ev.variant_loops if r.model == m])
                                   for m in models}  # fmt: skip
        names.append(VARIANT_LOOPS_JSONL)
        texts.append(_jsonl(ev.variant_loops))
    if ev.llmrank:
        record["llmrank"] = llmrank_stats(ev.llmrank)
        names.append(LLMRANK_JSONL)
        texts.append(_jsonl(ev.llmrank))
    texts[2] = json.dumps(record, indent=2) + "\n"
    paths = [folder / n for n in names]
    for path, text in zip(paths, texts, strict=True):
        write_text_atomic(path, text)
    return paths
