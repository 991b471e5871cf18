"""Ranker parameters: bounds, finite numbers, heads | dim, and the training-memory estimate."""

from __future__ import annotations

import subprocess
import sys

import pytest

from macrs_sim.errors import ConfigError
from macrs_sim.rankers.memory import check_fits, train_bytes
from macrs_sim.rankers.params import BPRParams, SASRecParams, ToolRecParams
from macrs_sim.rankers.train import make_params, option_params


@pytest.mark.parametrize(
    ("kind", "overrides", "line"),
    [
        ("sasrec", {"heads": "3"}, "sasrec parameter heads: 3 does not divide dim = 64"),
        ("bert4rec", {"dim": "10", "heads": "4"}, "bert4rec parameter heads: 4 does not divide"),
        ("sasrec", {"max_len": "2000000000"}, "sasrec parameter max_len: Input should be less"),
        ("sasrec", {"dim": "1000000"}, "sasrec parameter dim: Input should be less than or"),
        ("sasrec", {"lr": "inf"}, "sasrec parameter lr: Input should be a finite number"),
        ("bpr", {"reg": "nan"}, "bpr parameter reg: Input should be a finite number"),
        ("bpr", {"seed": str(2**64)}, "bpr parameter seed: Input should be less than or equal"),
        ("sasrec", {"seed": "-1"}, "sasrec parameter seed: Input should be greater than or"),
        ("sasrec", {"epochs": "-1"}, "sasrec parameter epochs: Input should be greater than"),
        ("bert4rec", {"epochs": "100000"}, "bert4rec parameter epochs: Input should be less"),
        ("itemcf", {"neighbours": "1e9"}, "itemcf parameter neighbours: Input should be a valid"),
    ],
)
def test_a_value_no_trainer_can_use_is_one_line(
    kind: str, overrides: dict[str, str], line: str
) -> None:
    with pytest.raises(ConfigError) as err:
        make_params(kind, overrides)
    assert str(err.value).startswith(line)
    assert "\n" not in str(err.value)


def test_the_largest_values_still_pass() -> None:
    p = make_params("sasrec", {"seed": str(2**63 - 1), "dim": "4096", "heads": "64"})
    assert isinstance(p, SASRecParams) and p.seed == 2**63 - 1 and p.dim == 4096


def test_option_params_name_the_field_first() -> None:
    with pytest.raises(ValueError) as err:
        option_params("sasrec", {"heads": "5", "dim": "12"})
    assert str(err.value) == "heads: 5 does not divide dim = 12"
    with pytest.raises(ValueError) as err:
        option_params(ToolRecParams, {"tune_lr": "-inf"})
    assert str(err.value) == "tune_lr: Input should be a finite number"


def test_the_params_need_no_torch() -> None:
    code = "import sys, macrs_sim.rankers.memory; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_training_memory_is_estimated_by_hand() -> None:
    small = SASRecParams(dim=8, max_len=4, blocks=1, heads=1, batch_size=2)
    # weights (10 + 2) * 8 + 4 * 8 + 12 * 8 * 8 = 896 (x5); states 2*4*8*1*16 = 1024;
    # attention 2*1*4*4*1*3 = 96; 4 bytes a float.
    assert train_bytes(small, 10) == 4 * (5 * 896 + 1024 + 96)
    softmax = small.model_copy(update={"loss": "softmax"})
    assert train_bytes(softmax, 10) == 4 * (5 * 896 + 1024 + 96 + 2 * 2 * 4 * 10)
    bpr = BPRParams(dim=8, batch_size=2, max_history=3)
    # weights (2 * 10 + 1) * 8 + 10 = 178 (x5); activations 2 * 5 * 8 * 4 = 320.
    assert train_bytes(bpr, 10) == 4 * (5 * 178 + 320)


def test_a_model_too_big_for_the_catalog_is_refused_before_training() -> None:
    check_fits("sasrec", SASRecParams(), 60_000)  # the defaults on a MovieLens-25M catalog
    huge = SASRecParams(dim=4096, batch_size=100_000)
    with pytest.raises(ConfigError) as err:
        check_fits("sasrec", huge, 332)
    assert str(err.value) == (
        "sasrec parameters (dim 4096, max_len 50, batch_size 100000) need about 2,455 GiB to"
        " train on 332 items, over the 16 GiB limit: lower dim, max_len or batch_size"
    )
