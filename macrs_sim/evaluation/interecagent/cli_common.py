"""What the `eval interecagent` commands share: defaults, `--k`, tables, call counts."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from macrs_sim.errors import ConfigError

if TYPE_CHECKING:
    import pandas as pd

    from macrs_sim.llm.accounting import CallLog

console = Console(markup=False, highlight=False)
DEFAULT_K = {"retrieval": 5, "ranking": 20}  # the paper's Recall@5 and NDCG@20
RANKERS = ["popularity", "itemcf", "bpr", "sasrec", "bert4rec"]  # rankers.train.MODEL_KINDS
# `demos --count`: requests per strategy (output-first: per plan shape); issue 27's bound.
MAX_DEMO_COUNT = 10_000


def parse_ks(text: str) -> list[int]:
    try:
        return [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise ConfigError(f"--k {text!r}: expected positive integers like 1,3,5") from None


def print_frame(frame: pd.DataFrame, title: str) -> None:
    print(title)  # plain: one unwrapped line whatever the terminal width
    table = Table(box=None, pad_edge=False)
    for col in frame.columns:
        table.add_column(str(col), justify="left" if col == "system" else "right", no_wrap=True)
    for row in frame.itertuples(index=False):
        cells = [f"{v:.3f}" if isinstance(v, float) else str(v) for v in row]
        table.add_row(*cells)
    console.print(table)


def calls_line(log: CallLog) -> str:
    calls = log.all()
    by_role = Counter(c.role for c in calls)
    tokens = sum(c.prompt_tokens + c.completion_tokens for c in calls)
    roles = ", ".join(f"{role} {n}" for role, n in by_role.items())
    return f"model calls: {len(calls)} ({roles or 'none'}), {tokens} tokens"
