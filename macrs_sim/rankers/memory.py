"""What training a ranker would take in memory, checked before it starts (no torch needed).

Each field of rankers/params.py has its own bound; together they can still ask for more
than a machine holds (`dim = 4096` on 60,000 items and a softmax over them), which
torch reports only as an out-of-memory crash, or the machine as swapping. The estimate
is an upper bound in float32: the weights four times over (weights, gradients, Adam's
two moments) plus the best epoch's copy, and one batch's activations (every block's
states, the attention maps, a softmax's logits over every item). It is coarse on
purpose: it refuses settings no study means, never ones a paper uses.
"""

from __future__ import annotations

from pydantic import BaseModel

from macrs_sim.errors import ConfigError
from macrs_sim.rankers.params import BERT4RecParams, BPRParams, SASRecParams, ToolRecParams

GIB = 1024**3
MEMORY_LIMIT_BYTES = 16 * GIB
_FLOAT = 4


def _transformer_bytes(p: SASRecParams | BERT4RecParams, n_items: int, batch: int) -> int:
    blocks = p.blocks + (p.tune_blocks if isinstance(p, ToolRecParams) else 0)
    weights = (n_items + 2) * p.dim + p.max_len * p.dim + blocks * 12 * p.dim * p.dim
    states = batch * p.max_len * p.dim * blocks * 16
    attention = batch * p.heads * p.max_len * p.max_len * blocks * 3
    full_softmax = isinstance(p, BERT4RecParams) or p.loss == "softmax"
    logits = 2 * batch * p.max_len * n_items if full_softmax else 0
    return _FLOAT * (5 * weights + states + attention + logits)


def train_bytes(params: BaseModel, n_items: int) -> int:
    """An upper estimate of training memory on `n_items` items (0 for count-based kinds)."""
    if isinstance(params, ToolRecParams):
        return _transformer_bytes(params, n_items, max(params.batch_size, params.tune_batch_size))
    if isinstance(params, SASRecParams | BERT4RecParams):
        return _transformer_bytes(params, n_items, params.batch_size)
    if isinstance(params, BPRParams):
        weights = (2 * n_items + 1) * params.dim + n_items
        acts = params.batch_size * (params.max_history + 2) * params.dim * 4
        return _FLOAT * (5 * weights + acts)
    return 0


def check_fits(kind: str, params: BaseModel, n_items: int) -> None:
    """ConfigError (one line) when training `kind` with `params` needs more than the limit."""
    need = train_bytes(params, n_items)
    if need <= MEMORY_LIMIT_BYTES:
        return
    shown = ", ".join(
        f"{name} {getattr(params, name)}"
        for name in ("dim", "max_len", "batch_size", "max_history")
        if name in type(params).model_fields
    )
    raise ConfigError(
        f"{kind} parameters ({shown}) need about {need / GIB:,.0f} GiB to train on"
        f" {n_items:,} items, over the {MEMORY_LIMIT_BYTES // GIB} GiB limit:"
        " lower dim, max_len or batch_size"
    )
