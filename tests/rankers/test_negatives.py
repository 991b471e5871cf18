"""Sampled negatives come from outside the user's own sequence (SASRec and ToolRec stage 2)."""

from __future__ import annotations

from typing import Any

import pytest

from macrs_sim.data.splits import leave_one_out
from tests.rankers.toy_data import TORCH_REASON, toy

torch = pytest.importorskip("torch", reason=TORCH_REASON)

from macrs_sim.rankers.torch import sasrec as sasrec_module  # noqa: E402
from macrs_sim.rankers.torch.sasrec import SASRecParams, SASRecRanker  # noqa: E402

# Six items; user a has seen five of them, so item 5 (embedding row 6) is a's only negative.
SEQS = {"a": [0, 1, 2, 3, 4], "b": [5, 0, 3], "c": [2, 4]}
TINY = {"dim": 8, "max_len": 6, "blocks": 1, "heads": 1, "batch_size": 2, "epochs": 2}


def rows(draws: Any) -> list[set[int]]:
    return [set(r.tolist()) for r in draws]


def test_sampler_draws_only_the_unseen_items() -> None:
    from macrs_sim.rankers.torch.negatives import NegativeSampler

    sampler = NegativeSampler([SEQS["a"], SEQS["b"], SEQS["c"], list(range(6))], 6)
    g = torch.Generator().manual_seed(0)
    draws = sampler.draw(torch.tensor([0, 1, 2, 1, 0]), 300, g)
    assert draws.shape == (5, 300)
    # Rows are catalog index + 1: a's one unseen item 5 -> 6; b's unseen 1, 2, 4 -> 2, 3, 5.
    assert rows(draws) == [{6}, {2, 3, 5}, {1, 2, 4, 6}, {2, 3, 5}, {6}]
    # Uniform over b's three unseen items: each about 200 of 600 draws.
    counts = torch.bincount(draws[[1, 3]].flatten(), minlength=7).tolist()
    assert [c for c in counts if c] == [counts[2], counts[3], counts[5]]
    assert all(150 < c < 250 for c in (counts[2], counts[3], counts[5]))
    # A user who has seen every item gets any item rather than none.
    assert rows(sampler.draw(torch.tensor([3]), 300, g)) == [{1, 2, 3, 4, 5, 6}]


def test_same_generator_seed_same_negatives() -> None:
    from macrs_sim.rankers.torch.negatives import NegativeSampler

    sampler = NegativeSampler(list(SEQS.values()), 6)
    users = torch.tensor([1, 2, 1])
    a = sampler.draw(users, 4, torch.Generator().manual_seed(7))
    b = sampler.draw(users, 4, torch.Generator().manual_seed(7))
    assert torch.equal(a, b)


def seen_rows(train: dict[str, tuple[int, ...]]) -> list[set[int]]:
    return [{i + 1 for i in seq} for seq in train.values()]


def test_sasrec_training_never_draws_a_users_own_item(monkeypatch: pytest.MonkeyPatch) -> None:
    data = toy(SEQS, 6)
    split = leave_one_out(data)
    batches: list[tuple[Any, Any]] = []
    real_loss = sasrec_module._loss

    def spy(net: Any, inputs: Any, targets: Any, negatives: Any, *rest: Any) -> Any:
        batches.append((torch.cat([inputs, targets], dim=1), negatives))
        return real_loss(net, inputs, targets, negatives, *rest)

    monkeypatch.setattr(sasrec_module, "_loss", spy)
    params = SASRecParams.model_validate({**TINY, "loss": "bce"})
    SASRecRanker.fit(data.item_ids, split.train, split.validation, params)
    # Training sees a = [0, 1, 2], b = [5], c = [2, 4] (leave-one-out keeps the last two of
    # a and b back); each window is one user's whole training sequence.
    assert split.train == {"a": (0, 1, 2), "b": (5,), "c": (2, 4)}
    assert len(batches) == 2  # one batch of two windows (b has no pair to learn), two epochs
    for window, negatives in batches:
        for items, negs in zip(window.tolist(), negatives.tolist(), strict=True):
            own = set(items) - {0}
            assert own & set(negs) == set(), (items, negs)


def test_toolrec_stage_two_draws_outside_the_users_sequence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from macrs_sim.rankers.torch import toolrec as toolrec_module
    from macrs_sim.rankers.torch.negatives import NegativeSampler
    from tests.rankers.decade_data import decade_data

    data, dataset = decade_data()
    split = leave_one_out(data)
    seen = seen_rows(split.train)
    drawn: list[tuple[list[int], list[list[int]]]] = []

    class Spy(NegativeSampler):
        def draw(self, users: Any, width: int, generator: Any) -> Any:
            out = super().draw(users, width, generator)
            drawn.append((users.tolist(), out.tolist()))
            return out

    monkeypatch.setattr(toolrec_module, "NegativeSampler", Spy)
    _train_toolrec(data, dataset, split)
    assert drawn
    for users, negs in drawn:
        for user, row in zip(users, negs, strict=True):
            assert seen[user] & set(row) == set()


def _train_toolrec(data: Any, dataset: Any, split: Any) -> None:
    from macrs_sim.rankers.attribute_values import available_tables
    from macrs_sim.rankers.torch.toolrec import ToolRecParams, ToolRecRetriever

    big_batches = {"batch_size": 256, "tune_batch_size": 256, "epochs": 1, "tune_epochs": 1}
    params = ToolRecParams.model_validate({**TINY, "max_len": 8, **big_batches})
    backbone = SASRecRanker.fit(data.item_ids, split.train, split.validation, params.backbone())
    items = [dataset.catalog[i] for i in data.item_ids]
    tables = available_tables(items, ("decade",), 2)
    ToolRecRetriever.fit(backbone, tables, split.train, split.validation, params)
