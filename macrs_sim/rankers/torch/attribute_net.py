"""ToolRec's attribute encoder (§3.3.2, Eq. 2-3): a user's attribute sequence, fused with SASRec.

f_attr is a small causal Transformer over the history's attribute values (an item
with several values, e.g. genres, is the mean of their embeddings); its last state
a_u and the frozen SASRec state H give the user u = Dense(a_u ⊕ H). Items are
scored against the frozen SASRec item table. The dense layer starts as u = H, so
fine-tuning starts from the pre-trained ranking and moves only as far as the
attribute helps. The paper embeds attribute words with GloVe; here value
embeddings are learned (no pretrained word vectors are shipped).
"""

from __future__ import annotations

import torch
from torch import nn


class AttributeEncoder(nn.Module):
    def __init__(
        self, value_rows: torch.Tensor, n_values: int, dim: int, max_len: int, blocks: int,
        dropout: float,
    ) -> None:  # fmt: skip
        super().__init__()
        self.register_buffer("value_rows", value_rows, persistent=False)
        self.values = nn.Embedding(n_values, dim, padding_idx=0)
        self.positions = nn.Embedding(max_len, dim)
        self.dropout = nn.Dropout(dropout)
        layer = nn.TransformerEncoderLayer(
            dim, 1, dim_feedforward=dim, dropout=dropout, batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, blocks, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        for table in (self.values, self.positions):
            nn.init.xavier_normal_(table.weight)
        with torch.no_grad():
            self.values.weight[0].zero_()
        self.dense = nn.Linear(2 * dim, dim)
        with torch.no_grad():  # u = H at the start: [0 | I]
            self.dense.weight.zero_()
            self.dense.weight[:, dim:].copy_(torch.eye(dim))
            self.dense.bias.zero_()
        causal = torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), diagonal=1)
        self.register_buffer("causal", causal, persistent=False)

    def item_values(self, seq: torch.Tensor) -> torch.Tensor:
        """(batch, len) item rows -> (batch, len, dim): mean of each item's value embeddings."""
        rows: torch.Tensor = self.value_rows  # type: ignore[assignment]
        ids = rows[seq]  # (batch, len, width)
        count = (ids > 0).sum(-1, keepdim=True).clamp(min=1)
        out: torch.Tensor = self.values(ids).sum(-2) / count
        return out

    def forward(self, seq: torch.Tensor, behaviour: torch.Tensor) -> torch.Tensor:
        """Item rows, frozen SASRec states (batch, len, dim) -> user states u per position."""
        x = self.item_values(seq) + self.positions.weight[None, : seq.shape[1], :]
        x = self.dropout(x) * (seq > 0).unsqueeze(-1)
        mask: torch.Tensor = self.causal  # type: ignore[assignment]
        a = self.norm(self.encoder(x, mask=mask, is_causal=True))
        out: torch.Tensor = self.dense(torch.cat([a, behaviour], dim=-1))
        return out
