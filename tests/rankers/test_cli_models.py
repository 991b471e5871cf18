"""`models train` and `eval sequential` through the CLI entry point, bad inputs included."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from macrs_sim.cli import build_parser, main
from macrs_sim.rankers.sequential import EvalRow, stopping_line
from tests.rankers.toy_data import TORCH_REASON


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_models_check_still_parses() -> None:
    args = build_parser().parse_args(["models", "check", "s.toml"])
    assert args.func.__name__ == "_models_check"


def test_train_twice_second_is_cached(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("models", "train", "itemcf", "demo", "--cache-dir", str(tmp_path), "--no-progress")
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out.startswith("trained itemcf on demo, leave-one-out split, in ")
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out.startswith("cached (trained itemcf on demo, leave-one-out split, in ")
    assert f"checkpoint: {tmp_path}" in out


def test_eval_sequential_writes_table_csv_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "eval"
    code, out, _ = run(
        capsys, "eval", "sequential", "demo", "--models", "popularity,itemcf", "--k", "10,5",
        "--out", str(out_dir), "--cache-dir", str(tmp_path / "cache"), "--no-progress",
    )  # fmt: skip
    assert code == 0
    assert "leave-one-out, full ranking, 400 users" in out
    with (out_dir / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["model"] for r in rows] == ["popularity", "itemcf"]
    assert list(rows[0])[:6] == ["model", "HR@5", "HR@10", "NDCG@5", "NDCG@10", "MRR"]
    record = json.loads((out_dir / "results.json").read_text())
    assert record["split"] == "leave-one-out" and record["n_items"] == 332
    for r in record["results"]:
        assert 0 < r["NDCG@5"] <= r["NDCG@10"] <= r["HR@10"] <= 1
    assert sorted(p.name for p in out_dir.iterdir()) == ["results.csv", "results.json"]


def test_train_sasrec_with_overrides(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason=TORCH_REASON)
    code, out, _ = run(
        capsys, "models", "train", "sasrec", "demo", "--set", "epochs=2", "--set", "dim=8",
        "--seed", "1", "--cache-dir", str(tmp_path), "--no-progress",
    )  # fmt: skip
    assert code == 0
    assert "best validation NDCG@10" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("models", "train", "svd", "demo"), "error: unknown model 'svd'; expected one of"),
        (
            ("eval", "sequential", "demo", "--models", "popularity,svd"),
            "error: unknown model 'svd'",
        ),
        (("eval", "sequential", "demo", "--k", "0"), "error: --k '0': expected positive integers"),
        (("models", "train", "itemcf", "demo", "--set", "x"), "error: --set 'x': expected"),
        (("models", "train", "itemcf", "demo", "--set", "bpr.dim=3"), "model 'bpr' is not being"),
        (("models", "train", "itemcf", "demo", "--set", "neighbours=many"), "parameter neighbours"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    argv: tuple[str, ...], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_a_missing_database_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.sqlite"
    out_dir = tmp_path / "out"
    for argv in (
        ("models", "train", "popularity", str(missing)),
        ("eval", "sequential", str(missing), "--out", str(out_dir)),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2 and err.count("\n") == 1
        assert f"error: data.dataset: {missing}: no such database" in err
    assert sorted(tmp_path.iterdir()) == []


def test_train_on_the_campaign_split_of_a_sample_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from macrs_sim.data.sample_set import SampleSetHeader, write_sample_set
    from macrs_sim.data.splits import load_interactions
    from macrs_sim.protocol import Sample

    data = load_interactions("demo")
    user = sorted(data.sequences)[0]
    seq = [data.item_ids[i] for i in data.sequences[user]]
    sample = Sample(
        sample_id="s-1", user_id=user, history=tuple(seq[:20]), target_id=seq[20], opening="hi"
    )
    header = SampleSetHeader(
        dataset=data.dataset_name, dataset_fingerprint=data.fingerprint, data={}, simulator={},
        n_samples=1,
    )  # fmt: skip
    path = tmp_path / "samples.jsonl"
    write_sample_set(path, header, [sample])
    argv = ("models", "train", "popularity", "demo", "--sample-set", str(path))
    code, out, _ = run(capsys, *argv, "--cache-dir", str(tmp_path / "c"))
    assert code == 0 and "popularity on demo, campaign split" in out
    # The leave-one-out checkpoint is another file: the split is part of the key.
    run(capsys, "models", "train", "popularity", "demo", "--cache-dir", str(tmp_path / "c"))
    assert len(list((tmp_path / "c").iterdir())) == 2


def test_eval_sequential_says_how_each_trained_model_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("torch", reason=TORCH_REASON)
    common = ("--cache-dir", str(tmp_path / "cache"), "--no-progress", "--set", "sasrec.dim=8")
    code, out, _ = run(
        capsys, "eval", "sequential", "demo", "--models", "popularity,sasrec", "--k", "10",
        "--out", str(tmp_path / "a"), "--set", "sasrec.epochs=2", *common,
    )  # fmt: skip
    assert code == 0
    lines = [ln for ln in out.splitlines() if ln.startswith(("popularity:", "sasrec:"))]
    assert len(lines) == 1  # popularity is counted, not trained by epochs
    assert re.fullmatch(
        r"sasrec: ran to the epoch limit, 2 epochs \(best epoch [12]\); "
        r"more epochs may help: --set sasrec\.epochs=N", lines[0]
    )  # fmt: skip
    with (tmp_path / "a" / "results.csv").open() as f:
        rows = {r["model"]: r for r in csv.DictReader(f)}
    assert (rows["sasrec"]["epochs_run"], rows["sasrec"]["stopped"]) == ("2", "epoch_limit")
    assert (rows["popularity"]["epochs_run"], rows["popularity"]["stopped"]) == ("", "")
    one = EvalRow("bpr", {}, 1, 0.0, True, "c", epochs_run=1, best_epoch=1, stopped="epoch_limit")
    assert stopping_line(one) == ("bpr: ran to the epoch limit, 1 epoch (best epoch 1); "
                                  "more epochs may help: --set bpr.epochs=N")  # fmt: skip
    # Plain patience 1: early stopping ends training one epoch after the best.
    code, out, _ = run(
        capsys, "eval", "sequential", "demo", "--models", "sasrec", "--k", "10",
        "--out", str(tmp_path / "b"), "--set", "sasrec.patience=1", "--set", "min_epochs=1",
        "--set", "smoothing=1", *common,
    )  # fmt: skip
    found = re.search(r"^sasrec: early stopping after (\d+) epochs; weights of its best epoch, "
                      r"(\d+)$", out, re.MULTILINE)  # fmt: skip
    assert code == 0 and found is not None
    assert int(found[1]) == int(found[2]) + 1


def test_stop_reason_of_records_with_and_without_it() -> None:
    pytest.importorskip("torch", reason=TORCH_REASON)
    from macrs_sim.rankers.train import make_params, stop_reason

    params = make_params("sasrec", {"epochs": "30"})
    assert stop_reason({"stopped": "early_stopping", "epochs_run": 30}, params) == "early_stopping"
    # Checkpoints written before the reason was stored: every epoch ran -> the limit.
    assert stop_reason({"epochs_run": 30}, params) == "epoch_limit"
    assert stop_reason({"epochs_run": 12}, params) == "early_stopping"
    assert stop_reason({"train_seconds": 0.1}, make_params("popularity", {})) is None
