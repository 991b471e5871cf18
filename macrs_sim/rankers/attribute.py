"""ToolRec's attribute-oriented retrieval tools (§3.3.2) behind one protocol.

`retrieve(history, attribute, k)`: the k best unseen items for a history of item
ids, ranked by the model fine-tuned for that attribute pattern. Importing this
module does not need torch; training and loading do (the `recsys` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, Split

if TYPE_CHECKING:
    from macrs_sim.rankers.params import ToolRecParams
    from macrs_sim.rankers.torch.loop import ProgressHook


@runtime_checkable
class AttributeRetriever(Protocol):
    # The patterns it was fine-tuned for, e.g. ("genre", "decade", "director").
    attributes: tuple[str, ...]

    def retrieve(self, history: Sequence[str], attribute: str, k: int) -> list[str]:
        """Item ids, best first, none from `history` (ids outside the catalog ignored).

        At most k (fewer when fewer items are unseen). ValueError for an attribute the
        model was not fine-tuned for (the message names the known ones) or k < 1.
        """
        ...


def load_or_train_attribute_retriever(
    data: Interactions, dataset: Dataset, cache_dir: Path, *, seed: int = 0,
    settings: ToolRecParams | None = None, split: Split | None = None,
    progress: Callable[[str], ProgressHook | None] | None = None,
) -> AttributeRetriever:  # fmt: skip
    """Both stages from the checkpoint cache, or trained and cached (leave-one-out by default).

    `seed` replaces `settings.seed`. `progress(name)` gives an epoch hook per stage
    ("sasrec", then each attribute pattern).
    """
    from macrs_sim.rankers.params import ToolRecParams
    from macrs_sim.rankers.torch.toolrec_train import train_toolrec

    params = (settings or ToolRecParams()).model_copy(update={"seed": seed})
    return train_toolrec(data, dataset, cache_dir, params, split, progress).retriever
