"""ToolRec's backbone trains with BPR, the paper's stage 1 (Eq. 4), unless the scenario says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from macrs_sim.agents.toolrec import build
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.splits import interactions_of


class Trained(Exception):
    """Stops prepare at its first training call, carrying what it was asked to train."""


def _params_of_first_training(options: ToolRecOptions, monkeypatch: pytest.MonkeyPatch) -> Any:
    import macrs_sim.rankers.train as train

    def capture(kind: str, data: Any, split: Any, params: Any, cache_dir: Path) -> Any:
        raise Trained(kind, params)

    monkeypatch.setattr(train, "train_ranker", capture)
    cfg = DataConfig()
    dataset = open_dataset(cfg)
    with pytest.raises(Trained) as got:
        build.prepare(options, dataset, interactions_of(dataset, cfg), [], Path("unused"))
    return got.value.args


def test_the_sasrec_backbone_defaults_to_bpr(monkeypatch: pytest.MonkeyPatch) -> None:
    kind, params = _params_of_first_training(ToolRecOptions(), monkeypatch)
    assert (kind, params.loss) == ("sasrec", "bpr")


def test_a_loss_the_scenario_sets_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    options = ToolRecOptions(ranker_params={"loss": "bce"})
    kind, params = _params_of_first_training(options, monkeypatch)
    assert (kind, params.loss) == ("sasrec", "bce")
