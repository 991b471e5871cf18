"""The torch rankers' specs: importing this module needs no torch (their modules do).

Each `train`/`load` ref names a function beside its model, imported when a checkpoint is
trained or loaded; `requires` makes a missing torch one line naming the `recsys` extra.
"""

from __future__ import annotations

from macrs_sim.rankers.params import BERT4RecParams, BPRParams, SASRecParams
from macrs_sim.rankers.registry import RankerSpec


def _torch_spec(
    kind: str, params: type[BPRParams | SASRecParams | BERT4RecParams], module: str
) -> RankerSpec:
    return RankerSpec(
        kind, params, train=f"{module}:train", load=f"{module}:load",
        requires=("torch",), extra="recsys",
    )  # fmt: skip


BPR = _torch_spec("bpr", BPRParams, "macrs_sim.rankers.bpr")
SASREC = _torch_spec("sasrec", SASRecParams, "macrs_sim.rankers.torch.sasrec")
BERT4REC = _torch_spec("bert4rec", BERT4RecParams, "macrs_sim.rankers.torch.bert4rec")
