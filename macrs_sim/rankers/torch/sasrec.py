"""SASRec as an ItemRanker: training windows; BCE or BPR with sampled negatives, or full softmax.

A position's negative is drawn from the items outside the user's training sequence,
as in the paper's reference implementations (`NegativeSampler`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Literal

import numpy as np
import torch
import torch.nn.functional as F
from pydantic import Field

from macrs_sim.data.splits import EvalCase
from macrs_sim.rankers.base import Arrays, Scores, mask_seen
from macrs_sim.rankers.evaluate import ndcg_at
from macrs_sim.rankers.torch.loop import (
    LoopParams,
    ProgressHook,
    TrainSummary,
    fit_early_stopping,
    pick_device,
)  # fmt: skip
from macrs_sim.rankers.torch.negatives import NegativeSampler
from macrs_sim.rankers.torch.sasrec_net import SASRecNet


class SASRecParams(LoopParams):
    dim: int = Field(default=64, ge=2)
    max_len: int = Field(default=50, ge=2)
    blocks: int = Field(default=2, ge=1)
    heads: int = Field(default=1, ge=1)
    dropout: float = Field(default=0.2, ge=0, lt=1)
    position: bool = True
    # One sampled negative per position: "bce" (SASRec paper, Eq. 3) or "bpr" (-log sigmoid
    # of positive minus negative score; ToolRec's stage 1, its Eq. 4). "softmax":
    # cross-entropy over every item (fewer epochs, but each costs ~10x more on CPU at 9k items).
    loss: Literal["softmax", "bce", "bpr"] = "bce"
    lr: float = Field(default=5e-3, gt=0)
    # Early stopping that lets SASRec learn without hand tuning. On ~600 users (MovieLens
    # ml-latest-small's size) validation NDCG@10 first sits on a plateau near popularity's
    # for ~10-15 epochs, then climbs for dozens more, and one epoch's value on a few hundred
    # users moves by ~+-10% at random. Patience 5 on the raw value stopped it on the plateau
    # (epoch 2-8, below popularity). So: never stop before epoch 20, stop after 20 epochs
    # with no record of the 3-epoch mean (benchmarks/bench_sasrec_learns.py).
    patience: int = Field(default=20, ge=1)
    min_epochs: int = Field(default=20, ge=1)
    smoothing: int = Field(default=3, ge=1)


def left_pad(seqs: Sequence[Sequence[int]], length: int) -> torch.Tensor:
    """Catalog indices -> embedding rows (+1), last `length` items, zeros on the left."""
    out = torch.zeros(len(seqs), length, dtype=torch.long)
    for row, seq in enumerate(seqs):
        tail = list(seq)[-length:]
        if tail:
            out[row, length - len(tail) :] = torch.tensor(tail, dtype=torch.long) + 1
    return out


def training_windows(
    train: Mapping[str, Sequence[int]], max_len: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Each sequence cut from its end into windows of max_len + 1: (inputs, next items,
    each window's user as a row of `list(train)`)."""
    windows: list[Sequence[int]] = []
    users: list[int] = []
    for row, seq in enumerate(train.values()):
        end = len(seq)
        while end >= 2:
            windows.append(seq[max(0, end - max_len - 1) : end])
            users.append(row)
            end -= max_len
    inputs = left_pad([w[:-1] for w in windows], max_len)
    targets = left_pad([w[1:] for w in windows], max_len)
    return inputs, targets, torch.tensor(users, dtype=torch.long)


class SASRecRanker:
    kind = "sasrec"

    def __init__(self, item_ids: tuple[str, ...], net: SASRecNet, device: torch.device) -> None:
        self.item_ids, self.net, self.device = item_ids, net, device
        self.summary = TrainSummary()

    @staticmethod
    def build(n_items: int, p: SASRecParams) -> SASRecNet:
        return SASRecNet(n_items, p.dim, p.max_len, p.blocks, p.heads, p.dropout, p.position)

    @torch.no_grad()
    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        self.net.eval()
        seq = left_pad(histories, self.net.max_len).to(self.device)
        logits = self.net.item_logits(self.net(seq)[:, -1, :])
        return mask_seen(logits.float().cpu().numpy(), histories)

    def arrays(self) -> Arrays:
        return {k: v.detach().cpu().numpy() for k, v in self.net.state_dict().items()}

    @classmethod
    def from_arrays(
        cls, item_ids: tuple[str, ...], arrays: Arrays, params: SASRecParams
    ) -> SASRecRanker:
        net = cls.build(len(item_ids), params)
        net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in arrays.items()})
        device = pick_device()
        return cls(item_ids, net.to(device).eval(), device)

    @classmethod
    def fit(
        cls, item_ids: tuple[str, ...], train: Mapping[str, Sequence[int]],
        validation: Sequence[EvalCase], params: SASRecParams, progress: ProgressHook | None = None,
    ) -> SASRecRanker:  # fmt: skip
        torch.manual_seed(params.seed)
        device = pick_device()
        ranker = cls(item_ids, cls.build(len(item_ids), params).to(device), device)
        inputs, targets, users = training_windows(train, params.max_len)
        sampler = NegativeSampler(list(train.values()), len(item_ids))
        gen = torch.Generator().manual_seed(params.seed)

        def epoch_losses(g: torch.Generator) -> Iterator[torch.Tensor]:
            order = torch.randperm(len(inputs), generator=g)
            for lo in range(0, len(order), params.batch_size):
                idx = order[lo : lo + params.batch_size]
                negs = sampler.draw(users[idx], params.max_len, g)
                yield _loss(ranker.net, inputs[idx], targets[idx], negs, params, device)

        ranker.summary = fit_early_stopping(
            ranker.net, epoch_losses, lambda: ndcg_at(ranker, validation), params, gen, progress
        )
        ranker.net.eval()
        return ranker


def _loss(
    net: SASRecNet, inputs: torch.Tensor, targets: torch.Tensor, negatives: torch.Tensor,
    params: SASRecParams, device: torch.device,
) -> torch.Tensor:  # fmt: skip
    inputs, targets, negatives = inputs.to(device), targets.to(device), negatives.to(device)
    real = targets > 0
    states = net(inputs)[real]  # (positions, dim)
    if params.loss == "softmax":
        return F.cross_entropy(net.item_logits(states), targets[real] - 1)
    pos = (states * net.items(targets[real])).sum(-1)
    neg = (states * net.items(negatives[real])).sum(-1)
    if params.loss == "bpr":
        return -F.logsigmoid(pos - neg).mean()
    ones, zeros = torch.ones_like(pos), torch.zeros_like(neg)
    return F.binary_cross_entropy_with_logits(pos, ones) + F.binary_cross_entropy_with_logits(
        neg, zeros
    )
