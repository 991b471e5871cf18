"""What model calls cost, and a running total a campaign checks its budget against.

Prices are US dollars per million tokens, per model name as recorded on each
call. A cached call reached no backend, so it costs nothing, neither dollars
nor budget tokens; a model with no price costs no dollars (its tokens still count).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from macrs_sim.config import Price
from macrs_sim.protocol import LLMCallRecord

PER = 1_000_000


def call_cost_usd(record: LLMCallRecord, prices: Mapping[str, Price]) -> float:
    if record.cached:
        return 0.0
    return usage_cost_usd(record.model, record.prompt_tokens, record.completion_tokens, prices)


def usage_cost_usd(
    model: str, prompt_tokens: int, completion_tokens: int, prices: Mapping[str, Price]
) -> float:
    """Dollars for uncached token totals of one model (e.g. summed in SQL)."""
    price = prices.get(model)
    if price is None:
        return 0.0
    return (prompt_tokens * price.prompt + completion_tokens * price.completion) / PER


class Spend:
    """Uncached tokens and dollars spent so far, checked against optional limits."""

    def __init__(
        self,
        prices: Mapping[str, Price],
        *,
        budget_tokens: int | None = None,
        budget_usd: float | None = None,
    ) -> None:
        self.prices = prices
        self.budget_tokens = budget_tokens
        self.budget_usd = budget_usd
        self.tokens = 0
        self.usd = 0.0

    def add(self, records: Iterable[LLMCallRecord]) -> None:
        for rec in records:
            if not rec.cached:
                self.tokens += rec.prompt_tokens + rec.completion_tokens
                self.usd += call_cost_usd(rec, self.prices)

    def add_usage(self, model: str, prompt_tokens: int, completion_tokens: int) -> None:
        self.tokens += prompt_tokens + completion_tokens
        self.usd += usage_cost_usd(model, prompt_tokens, completion_tokens, self.prices)

    @property
    def reached(self) -> bool:
        over_tokens = self.budget_tokens is not None and self.tokens >= self.budget_tokens
        return over_tokens or (self.budget_usd is not None and self.usd >= self.budget_usd)

    def describe(self) -> str:
        limits = [f"{self.budget_tokens:,} tokens"] if self.budget_tokens is not None else []
        limits += [f"${self.budget_usd:.2f}"] if self.budget_usd is not None else []
        spent = f"spent {self.tokens:,} tokens (${self.usd:.4f})"
        return f"{spent} of a budget of {' / '.join(limits)}" if limits else spent
