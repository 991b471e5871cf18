"""SASRec as an ItemRanker: training windows; BCE or BPR with sampled negatives, or full softmax.

A position's negative is drawn from the items outside the user's training sequence,
as in the paper's reference implementations (`NegativeSampler`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from macrs_sim.data.splits import EvalCase, Split
from macrs_sim.rankers.base import Arrays, Scores, mask_seen
from macrs_sim.rankers.evaluate import ndcg_at
from macrs_sim.rankers.params import SASRecParams as SASRecParams
from macrs_sim.rankers.torch.loop import (
    ProgressHook,
    TrainSummary,
    fit_early_stopping,
    pick_device,
)  # fmt: skip
from macrs_sim.rankers.torch.negatives import NegativeSampler
from macrs_sim.rankers.torch.sasrec_net import SASRecNet


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


def train(
    item_ids: tuple[str, ...],
    split: Split,
    params: SASRecParams,
    progress: ProgressHook | None = None,
) -> SASRecRanker:
    """The registry's trainer (rankers/torch/specs.py): early stopping on the validation cases."""
    return SASRecRanker.fit(item_ids, split.train, split.validation, params, progress)


def load(item_ids: tuple[str, ...], arrays: Arrays, params: SASRecParams) -> SASRecRanker:
    return SASRecRanker.from_arrays(item_ids, arrays, params)
