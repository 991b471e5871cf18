"""BERT4Rec (Sun et al. 2019) as an ItemRanker: a bidirectional Transformer trained by cloze.

Each training window (a user's sequence cut from its end into `max_len` items) has a
share `mask_prob` of its items replaced by a [mask] token, at least one; the model
predicts each masked item with a softmax over every item (the paper's loss). To
recommend, [mask] is appended to the history and the items are scored at its place.
Rows: 0 padding, catalog item i is row i + 1, the mask is row n_items + 1. Output
scores are the final states against the item embeddings (tied) plus a bias per item.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from macrs_sim.data.splits import EvalCase, Split
from macrs_sim.rankers.base import Arrays, Scores, mask_seen
from macrs_sim.rankers.evaluate import ndcg_at
from macrs_sim.rankers.params import BERT4RecParams as BERT4RecParams
from macrs_sim.rankers.torch.loop import (
    ProgressHook,
    TrainSummary,
    fit_early_stopping,
    pick_device,
)  # fmt: skip
from macrs_sim.rankers.torch.sasrec import left_pad


class BERT4RecNet(nn.Module):
    def __init__(
        self, n_items: int, dim: int, max_len: int, blocks: int, heads: int, dropout: float
    ) -> None:
        super().__init__()
        self.dim, self.max_len, self.mask_row = dim, max_len, n_items + 1
        self.items = nn.Embedding(n_items + 2, dim, padding_idx=0)
        self.positions = nn.Embedding(max_len, dim)
        self.dropout = nn.Dropout(dropout)
        layer = nn.TransformerEncoderLayer(
            dim, heads, dim_feedforward=4 * dim, dropout=dropout, activation="gelu",
            batch_first=True, norm_first=True,
        )  # fmt: skip
        self.encoder = nn.TransformerEncoder(layer, blocks, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        self.bias = nn.Parameter(torch.zeros(n_items))
        for table in (self.items, self.positions):
            nn.init.trunc_normal_(table.weight, std=0.02)
        with torch.no_grad():
            self.items.weight[0].zero_()

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        """(batch, max_len) rows -> (batch, max_len, dim) states; padding is attended by none."""
        x = self.items(seq) * math.sqrt(self.dim) + self.positions.weight[None, : seq.shape[1]]
        h = self.encoder(self.dropout(x), src_key_padding_mask=seq == 0)
        out: torch.Tensor = self.norm(h)
        return out

    def item_logits(self, states: torch.Tensor) -> torch.Tensor:
        """(..., dim) states -> (..., n_items) scores of every catalog item."""
        return states @ self.items.weight[1 : self.mask_row].T + self.bias


def cloze_windows(train: Mapping[str, Sequence[int]], max_len: int) -> torch.Tensor:
    """Each sequence cut from its end into windows of `max_len` items (left-padded rows)."""
    windows: list[Sequence[int]] = []
    for seq in train.values():
        for end in range(len(seq), 1, -max_len):
            windows.append(seq[max(0, end - max_len) : end])
    return left_pad(windows, max_len)


def mask_items(
    rows: torch.Tensor, prob: float, mask_row: int, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """(inputs with [mask] in place of the chosen items, labels: the item's row there, else 0).

    Each real item is chosen with probability `prob`; a window with none chosen has its
    last item chosen, so every window teaches something.
    """
    real = rows > 0
    chosen = (torch.rand(rows.shape, generator=generator) < prob) & real
    none = ~chosen.any(dim=1)
    chosen[none, -1] = real[none, -1]
    inputs = torch.where(chosen, torch.full_like(rows, mask_row), rows)
    return inputs, torch.where(chosen, rows, torch.zeros_like(rows))


class BERT4RecRanker:
    kind = "bert4rec"

    def __init__(self, item_ids: tuple[str, ...], net: BERT4RecNet, device: torch.device) -> None:
        self.item_ids, self.net, self.device = item_ids, net, device
        self.summary = TrainSummary()

    @staticmethod
    def build(n_items: int, p: BERT4RecParams) -> BERT4RecNet:
        return BERT4RecNet(n_items, p.dim, p.max_len, p.blocks, p.heads, p.dropout)

    @torch.no_grad()
    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        self.net.eval()
        seq = left_pad([list(h)[-(self.net.max_len - 1) :] for h in histories], self.net.max_len)
        seq = torch.roll(seq, -1, dims=1)  # the last place is free: [mask] goes there
        seq[:, -1] = self.net.mask_row
        logits = self.net.item_logits(self.net(seq.to(self.device))[:, -1, :])
        return mask_seen(logits.float().cpu().numpy(), histories)

    def arrays(self) -> Arrays:
        return {k: v.detach().cpu().numpy() for k, v in self.net.state_dict().items()}

    @classmethod
    def from_arrays(
        cls, item_ids: tuple[str, ...], arrays: Arrays, params: BERT4RecParams
    ) -> BERT4RecRanker:
        net = cls.build(len(item_ids), params)
        net.load_state_dict({k: torch.from_numpy(np.asarray(v)) for k, v in arrays.items()})
        device = pick_device()
        return cls(item_ids, net.to(device).eval(), device)

    @classmethod
    def fit(
        cls, item_ids: tuple[str, ...], train: Mapping[str, Sequence[int]],
        validation: Sequence[EvalCase], params: BERT4RecParams,
        progress: ProgressHook | None = None,
    ) -> BERT4RecRanker:  # fmt: skip
        torch.manual_seed(params.seed)
        device = pick_device()
        ranker = cls(item_ids, cls.build(len(item_ids), params).to(device), device)
        windows = cloze_windows(train, params.max_len)
        net = ranker.net

        def epoch_losses(g: torch.Generator) -> Iterator[torch.Tensor]:
            order = torch.randperm(len(windows), generator=g)
            for lo in range(0, len(order), params.batch_size):
                inputs, labels = mask_items(windows[order[lo : lo + params.batch_size]],
                                            params.mask_prob, net.mask_row, g)  # fmt: skip
                inputs, labels = inputs.to(device), labels.to(device)
                chosen = labels > 0
                logits = net.item_logits(net(inputs)[chosen])
                yield F.cross_entropy(logits, labels[chosen] - 1)

        gen = torch.Generator().manual_seed(params.seed)
        ranker.summary = fit_early_stopping(
            net, epoch_losses, lambda: ndcg_at(ranker, validation), params, gen, progress
        )
        net.eval()
        return ranker


def train(
    item_ids: tuple[str, ...],
    split: Split,
    params: BERT4RecParams,
    progress: ProgressHook | None = None,
) -> BERT4RecRanker:
    """The registry's trainer (rankers/torch/specs.py): early stopping on the validation cases."""
    return BERT4RecRanker.fit(item_ids, split.train, split.validation, params, progress)


def load(item_ids: tuple[str, ...], arrays: Arrays, params: BERT4RecParams) -> BERT4RecRanker:
    return BERT4RecRanker.from_arrays(item_ids, arrays, params)
