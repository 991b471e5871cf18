"""SASRec's network (Kang & McAuley 2018): causal self-attention over the item sequence.

Item 0 is padding (sequences are left-padded); catalog item i is embedding row i + 1.
The position embedding is optional: InteRecAgent's SASRec runs without one.
"""

from __future__ import annotations

import math

import torch
from torch import nn


class SASRecNet(nn.Module):
    def __init__(
        self, n_items: int, dim: int, max_len: int, blocks: int, heads: int, dropout: float,
        position: bool,
    ) -> None:  # fmt: skip
        super().__init__()
        self.dim, self.max_len = dim, max_len
        self.items = nn.Embedding(n_items + 1, dim, padding_idx=0)
        self.positions = nn.Embedding(max_len, dim) if position else None
        self.dropout = nn.Dropout(dropout)
        layer = nn.TransformerEncoderLayer(
            dim, heads, dim_feedforward=dim, dropout=dropout, batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, blocks, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(dim)
        # Small embeddings (xavier, as the reference PyTorch SASRec): N(0, 1) makes the
        # first logits huge and training stalls.
        for table in (self.items, self.positions):
            if table is not None:
                nn.init.xavier_normal_(table.weight)
        with torch.no_grad():
            self.items.weight[0].zero_()
        causal = torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), diagonal=1)
        self.register_buffer("causal", causal, persistent=False)

    def forward(self, seq: torch.Tensor) -> torch.Tensor:
        """(batch, max_len) item rows -> (batch, max_len, dim) states, one per position."""
        x = self.items(seq) * math.sqrt(self.dim)
        if self.positions is not None:
            x = x + self.positions.weight[None, :, :]
        # Padding stays zero, as in the paper's timeline mask.
        x = self.dropout(x) * (seq > 0).unsqueeze(-1)
        mask: torch.Tensor = self.causal  # type: ignore[assignment]
        h = self.encoder(x, mask=mask, is_causal=True)
        out: torch.Tensor = self.norm(h)
        return out

    def item_logits(self, states: torch.Tensor) -> torch.Tensor:
        """(..., dim) states -> (..., n_items) scores of every catalog item."""
        return states @ self.items.weight[1:].T
