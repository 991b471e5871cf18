"""BPR-MF (Rendle et al. 2009) whose user factor is built from the history (needs torch).

A user is the mean of their history's items in a second item table (as FISM), so
any history can be scored, a campaign sample's included, without a per-user
parameter: score(j) = mean(Q[h]) . P[j] + b[j]. Trained with the BPR loss on
(user, seen item, random item) triples; early stopping on validation NDCG@10.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from macrs_sim.data.splits import EvalCase, Split
from macrs_sim.rankers.base import Arrays, Scores, mask_seen
from macrs_sim.rankers.evaluate import ndcg_at
from macrs_sim.rankers.params import BPRParams as BPRParams
from macrs_sim.rankers.torch.loop import (
    ProgressHook,
    TrainSummary,
    fit_early_stopping,
    pick_device,
)  # fmt: skip
from macrs_sim.rankers.torch.sasrec import left_pad


class BPRNet(nn.Module):
    def __init__(self, n_items: int, dim: int) -> None:
        super().__init__()
        self.history = nn.Embedding(n_items + 1, dim, padding_idx=0)  # Q (row 0: padding)
        self.items = nn.Embedding(n_items, dim)  # P
        self.bias = nn.Embedding(n_items, 1)
        nn.init.normal_(self.history.weight, std=0.1)
        nn.init.normal_(self.items.weight, std=0.1)
        nn.init.zeros_(self.bias.weight)
        with torch.no_grad():
            self.history.weight[0].zero_()

    def users(self, padded: torch.Tensor) -> torch.Tensor:
        """Mean of each row's history items (padding left out)."""
        w = self.history.weight
        return F.embedding_bag(padded, w, mode="mean", padding_idx=0)


class BPRRanker:
    kind = "bpr"

    def __init__(self, item_ids: tuple[str, ...], net: BPRNet, params: BPRParams) -> None:
        self.item_ids, self.net, self.params = item_ids, net, params
        self.device = next(net.parameters()).device
        self.summary = TrainSummary()

    @torch.no_grad()
    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        users = self.net.users(left_pad(histories, self.params.max_history).to(self.device))
        logits = users @ self.net.items.weight.T + self.net.bias.weight.T
        return mask_seen(logits.cpu().numpy().astype(np.float32), histories)

    def arrays(self) -> Arrays:
        return {k: v.detach().cpu().numpy() for k, v in self.net.state_dict().items()}

    @classmethod
    def from_arrays(cls, item_ids: tuple[str, ...], arrays: Arrays, params: BPRParams) -> BPRRanker:
        net = BPRNet(len(item_ids), params.dim)
        net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in arrays.items()})
        return cls(item_ids, net.to(pick_device()), params)

    @classmethod
    def fit(
        cls, item_ids: tuple[str, ...], train: Mapping[str, Sequence[int]],
        validation: Sequence[EvalCase], params: BPRParams, progress: ProgressHook | None = None,
    ) -> BPRRanker:  # fmt: skip
        torch.manual_seed(params.seed)
        device = pick_device()
        ranker = cls(item_ids, BPRNet(len(item_ids), params.dim).to(device), params)
        seqs = list(train.values())
        hist = left_pad(seqs, params.max_history)
        users = torch.tensor([u for u, s in enumerate(seqs) for _ in s], dtype=torch.long)
        positives = torch.tensor([i for s in seqs for i in s], dtype=torch.long)

        def epoch_losses(g: torch.Generator) -> Iterator[torch.Tensor]:
            order = torch.randperm(len(users), generator=g)
            for lo in range(0, len(order), params.batch_size):
                idx = order[lo : lo + params.batch_size]
                negs = torch.randint(0, len(item_ids), (len(idx),), generator=g)
                # A batch repeats users: build each one's vector once.
                batch_users, inverse = torch.unique(users[idx], return_inverse=True)
                batch = (hist[batch_users], inverse, positives[idx], negs)
                h, inv, pos, neg = (t.to(device) for t in batch)
                yield _bpr_loss(ranker.net, h, inv, pos, neg, params.reg)

        gen = torch.Generator().manual_seed(params.seed)
        ranker.summary = fit_early_stopping(
            ranker.net, epoch_losses, lambda: ndcg_at(ranker, validation), params, gen, progress
        )
        return ranker


def _bpr_loss(
    net: BPRNet, hist: torch.Tensor, inverse: torch.Tensor, pos: torch.Tensor, neg: torch.Tensor,
    reg: float,
) -> torch.Tensor:  # fmt: skip
    u = net.users(hist)[inverse]
    p, n = net.items(pos), net.items(neg)
    diff = (u * (p - n)).sum(-1) + net.bias(pos).squeeze(-1) - net.bias(neg).squeeze(-1)
    l2 = u.pow(2).sum(-1) + p.pow(2).sum(-1) + n.pow(2).sum(-1)
    loss: torch.Tensor = -F.logsigmoid(diff).mean() + reg * l2.mean()
    return loss


def train(
    item_ids: tuple[str, ...], split: Split, params: BPRParams, progress: ProgressHook | None = None
) -> BPRRanker:
    """The registry's trainer (rankers/torch/specs.py): early stopping on the validation cases."""
    return BPRRanker.fit(item_ids, split.train, split.validation, params, progress)


def load(item_ids: tuple[str, ...], arrays: Arrays, params: BPRParams) -> BPRRanker:
    return BPRRanker.from_arrays(item_ids, arrays, params)
