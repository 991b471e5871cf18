"""`macrs-sim eval toolrec DATASET`: ToolRec's own protocol (paper §4.1.2, Table 2 shape)."""

from __future__ import annotations

import argparse
import asyncio
import re
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from macrs_sim.evaluation.toolrec.cli_args import model_of, params_of, settings_of

console = Console(markup=False, highlight=False)


def _table(rows: list[Any]) -> Table:
    table = Table(box=None, pad_edge=False)
    for col in ("model", "Recall@10", "NDCG@10", "users"):
        table.add_column(col, justify="left" if col == "model" else "right", no_wrap=True)
    for r in rows:
        table.add_row(r.model, f"{r.recall_mean:.3f} ± {r.recall_std:.3f}",
                      f"{r.ndcg_mean:.4f} ± {r.ndcg_std:.4f}", str(r.n_users))  # fmt: skip
    return table


async def _evaluate(
    args: argparse.Namespace, settings: Any, options: Any
) -> tuple[Any, Any, dict[str, Any]]:
    from macrs_sim.agents.toolrec.scripted import toolrec_scripted_rules
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import open_dataset
    from macrs_sim.data.splits import interactions_of
    from macrs_sim.evaluation.toolrec.run import evaluate
    from macrs_sim.llm.accounting import CallLog
    from macrs_sim.llm.factory import build_client
    from macrs_sim.prompts import PromptLibrary
    from macrs_sim.rankers.cache import default_cache_dir

    params = params_of(args, [*settings.rankers, options.base_ranker], skip="toolrec.")
    cfg = DataConfig(dataset=args.dataset)
    dataset = open_dataset(cfg)
    data = interactions_of(dataset, cfg)
    cache_dir = Path(args.cache_dir) if args.cache_dir else default_cache_dir(data)
    log = CallLog()
    client = build_client(model_of(args), temperature=args.temperature, log=log,
                          scripted_rules=toolrec_scripted_rules())  # fmt: skip
    rows = 1 + len(settings.variants) + int(settings.llmrank)
    total = settings.users * len(settings.seeds) * rows
    columns = (
        TextColumn("LLM rows, users"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    try:
        with Progress(*columns, console=Console(stderr=True), disable=args.no_progress) as bars:
            task = bars.add_task("users", total=total)
            ev = await evaluate(
                data, dataset, settings, options=options, client=client,
                prompts=PromptLibrary(domain=dataset.domain),
                params=params, cache_dir=cache_dir,
                progress=lambda n: bars.advance(task, n),
            )  # fmt: skip
    finally:
        await client.close()
    return data, ev, _usage(log)


def _usage(log: Any) -> dict[str, Any]:
    """The model calls of the whole evaluation (repairs and retries included), per role."""
    calls = log.all()
    roles = sorted({c.role for c in calls})
    return {
        "calls": {r: sum(1 for c in calls if c.role == r) for r in roles},
        "failed": sum(1 for c in calls if not c.ok),
        "prompt_tokens": sum(c.prompt_tokens for c in calls),
        "completion_tokens": sum(c.completion_tokens for c in calls),
        "latency_s": round(sum(c.latency_s for c in calls), 3),
    }


def _eval_toolrec(args: argparse.Namespace) -> int:
    from macrs_sim.evaluation.toolrec.report import per_seed, summarize, write_report

    settings, options = settings_of(args)
    data, ev, usage = asyncio.run(_evaluate(args, settings, options))
    rows = summarize(per_seed(ev.users, ev.models), ev.models)
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", data.dataset_name).strip("-") or "dataset"
    header = {"dataset": data.dataset_name, "fingerprint": data.fingerprint,
              "split": "leave-one-out", "k": settings.k, "users": settings.users,
              "seeds": list(settings.seeds), "backend": args.backend, "model": args.model,
              "temperature": args.temperature,
              "options": options.model_dump(mode="json"), "llm": usage}  # fmt: skip
    paths = write_report(Path(args.out or f"reports/toolrec-{slug}"), ev, header)
    n = ", ".join(dict.fromkeys(str(ev.sampled[s]) for s in settings.seeds))
    print(f"{data.dataset_name}: leave-one-out, {n} users per seed, mean ± std over seeds")
    console.print(_table(rows))
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def add_toolrec_eval(ev: argparse._SubParsersAction[Any]) -> None:
    p = ev.add_parser("toolrec", help="ToolRec's protocol: Recall@10, NDCG@10 over sampled users")
    p.add_argument("dataset", help="'demo' or a prepared database")
    p.add_argument("--users", default="200", help="users sampled per seed (default 200)")
    p.add_argument("--seeds", default="0,1,2", help="one user sample per seed (comma list)")
    p.add_argument("--rankers", default="popularity,itemcf,bpr,sasrec", help="comma list")
    p.add_argument("--base", default="sasrec", help="ToolRec's plain ranker (default sasrec)")
    p.add_argument("--backend", choices=["scripted", "embedded", "openai"], default="scripted")
    p.add_argument("--model", help="embedded: a GGUF path; openai: the model name")
    p.add_argument("--base-url", help="openai: the endpoint (default: OpenAI)")
    p.add_argument(
        "--retriever",
        choices=["trained", "ranker"],
        default="trained",
        help="retrieval tools: trained (§3.3.2, default) or the ranker stand-in",
    )
    p.add_argument("--max-rounds", type=int, default=8, help="the loop's round limit (8)")
    p.add_argument("--temperature", type=float, default=0.0,
                   help="the model's temperature (default 0: repeatable runs)")  # fmt: skip
    p.add_argument(
        "--variants",
        default="",
        help="ToolRec ablations as rows (Fig. 4): single,multi,plan or all",
    )
    p.add_argument(
        "--llmrank",
        action="store_true",
        help="add the LLMRank row: the LLM ranks the base ranker's candidates",
    )
    p.add_argument(
        "--candidates",
        type=int,
        default=30,
        help="candidates of w/ single, w/ multi and LLMRank (default 30)",
    )
    p.add_argument("--concurrency", type=int, default=4, help="users in flight (default 4)")
    p.add_argument("--model-seed", type=int, help="seed of the torch rankers (default 0)")
    p.add_argument("--set", action="append", default=[], metavar="MODEL.KEY=VALUE",
                   help="a ranker hyperparameter, e.g. sasrec.epochs=20 (repeatable)")  # fmt: skip
    p.add_argument("--cache-dir", help="checkpoints (default: DATABASE.models/ beside it)")
    p.add_argument("--out", help="folder for results.csv, per_seed.csv, results.json")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_eval_toolrec)
