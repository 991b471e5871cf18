"""The rankers that ship with macrs-sim (the registry registers them on first use, in this
order: the order `models train` and error messages list them in)."""

from __future__ import annotations

from macrs_sim.rankers.itemcf import SPEC as ITEMCF
from macrs_sim.rankers.popularity import SPEC as POPULARITY
from macrs_sim.rankers.registry import RankerSpec
from macrs_sim.rankers.torch.specs import BERT4REC, BPR, SASREC

BUILTIN_SPECS: tuple[RankerSpec, ...] = (POPULARITY, ITEMCF, BPR, SASREC, BERT4REC)
