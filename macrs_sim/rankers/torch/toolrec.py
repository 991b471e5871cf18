"""ToolRec's attribute-oriented retrieval tools: frozen SASRec + one fine-tuned encoder per pattern.

Stage 1 is the toolkit's SASRec trained with the BPR loss, as the paper's stage 1 (the
`models train sasrec --set loss=bpr` checkpoint). Stage 2 freezes it and fits, for each
attribute pattern, an `AttributeEncoder` and its dense layer with the BPR loss (Eq. 4) on
every position of the training windows, one negative each from outside the user's
sequence; early stopping on validation NDCG@10 of that pattern.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from macrs_sim.data.splits import EvalCase
from macrs_sim.rankers.attribute_values import AttributeTable
from macrs_sim.rankers.base import Arrays, Scores, mask_seen, top_items
from macrs_sim.rankers.evaluate import ndcg_at
from macrs_sim.rankers.params import ToolRecParams as ToolRecParams
from macrs_sim.rankers.torch.attribute_net import AttributeEncoder
from macrs_sim.rankers.torch.loop import ProgressHook, TrainSummary, fit_early_stopping
from macrs_sim.rankers.torch.negatives import NegativeSampler
from macrs_sim.rankers.torch.sasrec import SASRecRanker, left_pad, training_windows


def _encoder(table: AttributeTable, p: ToolRecParams, device: torch.device) -> AttributeEncoder:
    rows = torch.from_numpy(table.rows)
    enc = AttributeEncoder(rows, table.n_values, p.dim, p.max_len, p.tune_blocks, p.tune_dropout)
    return enc.to(device)


class AttributeView:
    """One pattern's fine-tuned model as a plain `ItemRanker` (for offline evaluation)."""

    def __init__(self, owner: ToolRecRetriever, attribute: str) -> None:
        self.owner, self.attribute = owner, attribute
        self.kind = f"toolrec-{attribute}"
        self.item_ids = owner.item_ids

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        return self.owner.score(histories, self.attribute)


class ToolRecRetriever:
    """`AttributeRetriever`: the top-K unseen items for (history, attribute pattern, K)."""

    kind = "toolrec"

    def __init__(
        self, backbone: SASRecRanker, encoders: Mapping[str, AttributeEncoder],
        tables: Mapping[str, AttributeTable],
    ) -> None:  # fmt: skip
        self.backbone, self.encoders, self.tables = backbone, dict(encoders), dict(tables)
        self.item_ids = backbone.item_ids
        self.attributes: tuple[str, ...] = tuple(encoders)
        self.summaries: dict[str, TrainSummary] = {}
        for p in backbone.net.parameters():
            p.requires_grad_(False)

    def check(self, attribute: str) -> AttributeEncoder:
        if attribute not in self.encoders:
            known = ", ".join(self.attributes) or "none"
            raise ValueError(f"unknown attribute {attribute!r}; this model knows: {known}")
        return self.encoders[attribute]

    @torch.no_grad()
    def score(self, histories: Sequence[Sequence[int]], attribute: str) -> Scores:
        enc = self.check(attribute).eval()
        net = self.backbone.net.eval()
        seq = left_pad(histories, net.max_len).to(self.backbone.device)
        users = enc(seq, net(seq))[:, -1, :]
        logits = net.item_logits(users)
        return mask_seen(logits.float().cpu().numpy(), histories)

    def retrieve(self, history: Sequence[str], attribute: str, k: int) -> list[str]:
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        return [item_id for item_id, _ in top_items(self.view(attribute), history, k)]

    def view(self, attribute: str) -> AttributeView:
        self.check(attribute)
        return AttributeView(self, attribute)

    def arrays(self) -> Arrays:
        out: Arrays = {}
        for attr, enc in self.encoders.items():
            out |= {f"{attr}/{k}": v.detach().cpu().numpy() for k, v in enc.state_dict().items()}
        return out

    @classmethod
    def from_arrays(
        cls, backbone: SASRecRanker, tables: Mapping[str, AttributeTable], arrays: Arrays,
        params: ToolRecParams,
    ) -> ToolRecRetriever:  # fmt: skip
        encoders = {}
        for attr, table in tables.items():
            enc = _encoder(table, params, backbone.device)
            prefix = f"{attr}/"
            state = {k[len(prefix) :]: torch.from_numpy(np.asarray(v))
                     for k, v in arrays.items() if k.startswith(prefix)}  # fmt: skip
            enc.load_state_dict(state)
            encoders[attr] = enc.eval()
        return cls(backbone, encoders, tables)

    @classmethod
    def fit(
        cls, backbone: SASRecRanker, tables: Mapping[str, AttributeTable],
        train: Mapping[str, Sequence[int]], validation: Sequence[EvalCase], params: ToolRecParams,
        progress: Mapping[str, ProgressHook | None] | None = None,
    ) -> ToolRecRetriever:  # fmt: skip
        model = cls(backbone, {}, tables)
        inputs, targets, users = training_windows(train, params.max_len)
        behaviour = frozen_states(backbone, inputs)
        sampler = NegativeSampler(list(train.values()), len(backbone.item_ids))
        for attr, table in tables.items():
            torch.manual_seed(params.seed)
            enc = _encoder(table, params, backbone.device)
            model.encoders[attr] = enc
            model.attributes = tuple(model.encoders)
            hook = (progress or {}).get(attr)
            windows = _Windows(inputs, targets, users, behaviour, sampler)
            model.summaries[attr] = _tune(model, attr, windows, validation, params, hook)
            enc.eval()
        return model


@torch.no_grad()
def frozen_states(backbone: SASRecRanker, inputs: torch.Tensor, batch: int = 512) -> torch.Tensor:
    """The frozen SASRec's states H for every training window (computed once, eval mode)."""
    net = backbone.net.eval()
    starts = range(0, len(inputs), batch)
    parts = [net(inputs[lo : lo + batch].to(backbone.device)) for lo in starts]
    return torch.cat(parts) if parts else torch.zeros(0, net.max_len, net.dim)


@dataclass(frozen=True)
class _Windows:
    """Stage 2's training data: SASRec's windows, their users, the frozen states H."""

    inputs: torch.Tensor
    targets: torch.Tensor
    users: torch.Tensor
    behaviour: torch.Tensor
    negatives: NegativeSampler


def _tune(
    model: ToolRecRetriever, attr: str, w: _Windows, validation: Sequence[EvalCase],
    params: ToolRecParams, progress: ProgressHook | None,
) -> TrainSummary:  # fmt: skip
    enc = model.encoders[attr]
    items = model.backbone.net.items.weight.detach()
    device = model.backbone.device
    loop = params.tuning()

    def epoch_losses(g: torch.Generator) -> Iterator[torch.Tensor]:
        order = torch.randperm(len(w.inputs), generator=g)
        for lo in range(0, len(order), loop.batch_size):
            idx = order[lo : lo + loop.batch_size]
            negs = w.negatives.draw(w.users[idx], w.inputs.shape[1], g)
            seq, tgt, neg = w.inputs[idx].to(device), w.targets[idx].to(device), negs.to(device)
            real = tgt > 0
            users = enc(seq, w.behaviour[idx.to(device)])[real]
            diff = (users * (items[tgt[real]] - items[neg[real]])).sum(-1)
            yield -F.logsigmoid(diff).mean()

    gen = torch.Generator().manual_seed(params.seed)
    view = AttributeView(model, attr)
    return fit_early_stopping(enc, epoch_losses, lambda: ndcg_at(view, validation), loop, gen,
                              progress)  # fmt: skip
