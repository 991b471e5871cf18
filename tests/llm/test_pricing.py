"""Call costs (US$ per million tokens) and the running total a budget is checked against."""

from __future__ import annotations

import pytest

from macrs_sim.config import Price
from macrs_sim.llm.pricing import Spend, call_cost_usd
from macrs_sim.protocol import LLMCallRecord

PRICES = {"gpt": Price(prompt=2.0, completion=8.0)}


def call(model: str = "gpt", *, cached: bool = False, ok: bool = True) -> LLMCallRecord:
    return LLMCallRecord(
        dialogue_id="d", system="s", role="ask", turn=1, model=model,
        prompt_tokens=1000, completion_tokens=500, cached=cached, ok=ok,
    )  # fmt: skip


def test_a_call_costs_its_tokens_at_the_models_price() -> None:
    # 1000 x $2/M + 500 x $8/M
    assert call_cost_usd(call(), PRICES) == pytest.approx(0.006)


def test_cached_calls_and_unpriced_models_cost_nothing() -> None:
    assert call_cost_usd(call(cached=True), PRICES) == 0.0
    assert call_cost_usd(call("local-llama"), PRICES) == 0.0
    assert call_cost_usd(call(), {}) == 0.0


def test_spend_counts_uncached_tokens_of_every_model_and_dollars_of_priced_ones() -> None:
    spend = Spend(PRICES)
    spend.add([call(), call(cached=True), call("local-llama")])
    assert spend.tokens == 3000 and spend.usd == pytest.approx(0.006)
    spend.add_usage("gpt", 1000, 500)
    assert spend.tokens == 4500 and spend.usd == pytest.approx(0.012)
    assert not spend.reached  # no limit, never reached


@pytest.mark.parametrize(
    ("limits", "reached_after"),
    [({"budget_tokens": 3000}, 2), ({"budget_usd": 0.012}, 2), ({"budget_tokens": 10**6}, None)],
)
def test_a_budget_is_reached_once_spending_meets_it(
    limits: dict[str, float], reached_after: int | None
) -> None:
    spend = Spend(PRICES, **limits)  # type: ignore[arg-type]
    seen = []
    for _ in range(3):
        spend.add([call()])
        seen.append(spend.reached)
    expected = [reached_after is not None and i + 1 >= reached_after for i in range(3)]
    assert seen == expected


def test_describe_names_what_was_spent_against_which_limits() -> None:
    spend = Spend(PRICES, budget_tokens=2000, budget_usd=1.5)
    spend.add([call()])
    assert spend.describe() == "spent 1,500 tokens ($0.0060) of a budget of 2,000 tokens / $1.50"
    assert Spend({}).describe() == "spent 0 tokens ($0.0000)"
