"""`eval toolrec` trains ToolRec's SASRec backbone with BPR (Eq. 4), as campaigns do, while
the SASRec row keeps its own loss; its temperature is an option."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.splits import interactions_of
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.toolrec import run as run_module
from macrs_sim.evaluation.toolrec.cli import add_toolrec_eval
from macrs_sim.evaluation.toolrec.cli_args import settings_of
from macrs_sim.prompts import PromptLibrary
from macrs_sim.rankers.train import make_params


class Trained(Exception):
    """Stops the evaluation at ToolRec's own training call, carrying what it was given."""


def test_the_backbone_trains_with_bpr_beside_the_sasrec_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared = {"sasrec": make_params("sasrec", {})}
    assert compared["sasrec"].loss == "bce"  # the SASRec row: the ranker's default

    def train_all(*args: Any) -> dict[str, Any]:
        return {"sasrec": object()}

    def train_ranker(kind: str, data: Any, split: Any, params: Any, cache_dir: Path) -> Any:
        raise Trained(kind, params)

    monkeypatch.setattr(run_module, "train_all", train_all)
    monkeypatch.setattr(run_module, "train_ranker", train_ranker)
    cfg = DataConfig()
    dataset = open_dataset(cfg)
    with pytest.raises(Trained) as got:
        asyncio.run(run_module.evaluate(
            interactions_of(dataset, cfg), dataset, run_module.EvalSettings(users=1),
            options=ToolRecOptions(), client=None, prompts=PromptLibrary(),  # type: ignore[arg-type]
            params=compared, cache_dir=Path("unused"),
        ))  # fmt: skip
    kind, params = got.value.args
    assert (kind, params.loss) == ("sasrec", "bpr")
    assert params.model_dump(exclude={"loss"}) == compared["sasrec"].model_dump(exclude={"loss"})


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_toolrec_eval(parser.add_subparsers())
    return parser.parse_args(["toolrec", "demo", *argv])


def test_the_temperature_is_an_option_checked_in_one_line() -> None:
    assert _args().temperature == 0.0 and _args("--temperature", "0.7").temperature == 0.7
    with pytest.raises(ConfigError, match=r"^--temperature 3.0: expected a number from 0 to 2$"):
        settings_of(_args("--temperature", "3"))
