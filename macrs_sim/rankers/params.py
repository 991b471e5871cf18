"""Every ranker's hyperparameters as one typed model per kind, with bounds; needs no torch.

Each model is what `models train --set`, `eval sequential`, the baselines' `params`,
InteRecAgent's `ranker_params` and ToolRec's `ranker_params` / `retriever_params` are
checked against (rankers/train.py `make_params`), so a value the trainer could not use
fails when a scenario or command line is read, as one line naming the field:
numbers are finite (`lr = inf` is refused), seeds fit 63 bits, sizes have upper bounds
no study needs to pass, and a Transformer's `heads` divides its `dim` (torch's own
check is an AssertionError deep inside training). What the sizes cost together on a
catalog is rankers/memory.py's check, made where the item count is known.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from macrs_sim.rankers.attribute_values import known_patterns

MAX_SEED = 2**63 - 1
MAX_EPOCHS = 10_000
MAX_DIM = 4096
MAX_LEN = 4096
MAX_BLOCKS = 64
MAX_HEADS = 64
MAX_BATCH = 1_000_000
MAX_LR = 10.0


class RankerParams(BaseModel):
    """Base of every kind's parameters: unknown names refused, no inf or NaN anywhere."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class PopularityParams(RankerParams):
    pass


class ItemCFParams(RankerParams):
    # Keep this many neighbours per item (0: all); bounds memory on large catalogs.
    neighbours: int = Field(default=200, ge=0, le=MAX_BATCH)


class LoopParams(RankerParams):
    epochs: int = Field(default=200, ge=1, le=MAX_EPOCHS)
    patience: int = Field(default=5, ge=1, le=MAX_EPOCHS)
    # Epochs always run before early stopping may end training (capped by `epochs`).
    min_epochs: int = Field(default=1, ge=1, le=MAX_EPOCHS)
    # Epochs whose validation NDCG@10 is averaged for the stopping decision.
    smoothing: int = Field(default=1, ge=1, le=MAX_EPOCHS)
    lr: float = Field(default=1e-3, gt=0, le=MAX_LR)
    weight_decay: float = Field(default=0.0, ge=0, le=MAX_LR)
    batch_size: int = Field(default=128, ge=1, le=MAX_BATCH)
    seed: int = Field(default=0, ge=0, le=MAX_SEED)


class _Transformer(LoopParams):
    dim: int = Field(default=64, ge=2, le=MAX_DIM)
    max_len: int = Field(default=50, ge=2, le=MAX_LEN)
    blocks: int = Field(default=2, ge=1, le=MAX_BLOCKS)
    heads: int = Field(default=1, ge=1, le=MAX_HEADS)
    dropout: float = Field(default=0.2, ge=0, lt=1)

    @model_validator(mode="after")
    def _heads_divide_dim(self) -> _Transformer:
        if self.dim % self.heads:
            raise ValueError(f"heads: {self.heads} does not divide dim = {self.dim}")
        return self


class SASRecParams(_Transformer):
    position: bool = True
    # One sampled negative per position: "bce" (SASRec paper, Eq. 3) or "bpr" (-log sigmoid
    # of positive minus negative score; ToolRec's stage 1, its Eq. 4). "softmax":
    # cross-entropy over every item (fewer epochs, but each costs ~10x more on CPU at 9k items).
    loss: Literal["softmax", "bce", "bpr"] = "bce"
    lr: float = Field(default=5e-3, gt=0, le=MAX_LR)
    # Early stopping that lets SASRec learn without hand tuning. On ~600 users (MovieLens
    # ml-latest-small's size) validation NDCG@10 first sits on a plateau near popularity's
    # for ~10-15 epochs, then climbs for dozens more, and one epoch's value on a few hundred
    # users moves by ~+-10% at random. Patience 5 on the raw value stopped it on the plateau
    # (epoch 2-8, below popularity). So: never stop before epoch 20, stop after 20 epochs
    # with no record of the 3-epoch mean (benchmarks/bench_sasrec_learns.py).
    patience: int = Field(default=20, ge=1, le=MAX_EPOCHS)
    min_epochs: int = Field(default=20, ge=1, le=MAX_EPOCHS)
    smoothing: int = Field(default=3, ge=1, le=MAX_EPOCHS)


class BERT4RecParams(_Transformer):
    heads: int = Field(default=2, ge=1, le=MAX_HEADS)
    dropout: float = Field(default=0.1, ge=0, lt=1)
    # The paper's ρ for MovieLens (0.2).
    mask_prob: float = Field(default=0.2, gt=0, le=1)
    # As SASRec's, with a longer minimum: on the ml-latest-small-shaped benchmark
    # (bench_sasrec_learns.py) the cloze task's validation NDCG@10 had no record from epoch
    # 6 to 25 before it climbed to its best at epoch 90; patience 20 alone cleared that
    # plateau by one epoch.
    patience: int = Field(default=20, ge=1, le=MAX_EPOCHS)
    min_epochs: int = Field(default=50, ge=1, le=MAX_EPOCHS)
    smoothing: int = Field(default=3, ge=1, le=MAX_EPOCHS)


class BPRParams(LoopParams):
    dim: int = Field(default=64, ge=1, le=MAX_DIM)
    batch_size: int = Field(default=1024, ge=1, le=MAX_BATCH)
    # Measured on the sequential benchmark: validation NDCG peaks within ~10 epochs at this
    # rate and falls after; lower rates creep for hundreds of epochs.
    lr: float = Field(default=1e-2, gt=0, le=MAX_LR)
    epochs: int = Field(default=50, ge=1, le=MAX_EPOCHS)
    patience: int = Field(default=3, ge=1, le=MAX_EPOCHS)
    # L2 on the factors that take part in each triple.
    reg: float = Field(default=1e-4, ge=0, le=MAX_LR)
    # A user is the mean of (at most) their last `max_history` items.
    max_history: int = Field(default=200, ge=1, le=MAX_LEN)


class ToolRecParams(SASRecParams):
    """The backbone's SASRec fields (stage 1) plus the fine-tuning stage's `tune_*` fields."""

    # Stage 1 trains with BPR: the paper's Eq. 4 (the authors' configuration: loss_type BPR).
    loss: Literal["softmax", "bce", "bpr"] = "bpr"

    # 5e-3 moved the demo's validation NDCG below the frozen backbone's in the first epoch.
    tune_lr: float = Field(default=1e-3, gt=0, le=MAX_LR)
    tune_epochs: int = Field(default=50, ge=1, le=MAX_EPOCHS)
    tune_patience: int = Field(default=3, ge=1, le=MAX_EPOCHS)
    tune_batch_size: int = Field(default=128, ge=1, le=MAX_BATCH)
    tune_blocks: int = Field(default=1, ge=1, le=MAX_BLOCKS)
    tune_dropout: float = Field(default=0.2, ge=0, lt=1)
    # None: every pattern the catalog has values for (attribute_values.domain_patterns).
    attributes: tuple[str, ...] | None = None
    # A value carried by fewer items counts as unknown.
    min_items: int = Field(default=2, ge=1, le=MAX_BATCH)

    @field_validator("attributes", mode="before")
    @classmethod
    def _split_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # --set attributes=genre,decade
            value = tuple(v.strip() for v in value.split(",") if v.strip())
        if value is not None:
            # Any domain's names here; whether the dataset has them, where it is known
            # (rankers/torch/toolrec_train.py).
            known = known_patterns()
            unknown = [v for v in value if v not in known]
            if unknown or not value:
                raise ValueError(f"expected some of {', '.join(known)}, got {value!r}")
        return value

    def backbone(self) -> SASRecParams:
        return SASRecParams.model_validate({k: getattr(self, k) for k in SASRecParams.model_fields})

    def tuning(self) -> SASRecParams:
        """The loop settings of stage 2 (Adam, epochs, patience, batch) as the loop reads them.

        Stage 2 starts from the backbone's ranking (u = H) and stops on plain patience over
        the raw validation value (no minimum, no smoothing: those are stage 1's)."""
        update = {"lr": self.tune_lr, "epochs": self.tune_epochs, "patience": self.tune_patience,
                  "batch_size": self.tune_batch_size, "weight_decay": 0.0, "min_epochs": 1,
                  "smoothing": 1}  # fmt: skip
        return self.backbone().model_copy(update=update)
