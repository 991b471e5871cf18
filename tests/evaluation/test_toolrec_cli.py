"""`macrs-sim eval toolrec` end to end on the demo data (scripted backend), bad input too."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from macrs_sim.cli import main

FAST = (
    "--rankers",
    "popularity,itemcf",
    "--base",
    "itemcf",
    "--retriever",
    "ranker",
    "--no-progress",
)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_eval_toolrec_writes_the_table_csv_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "eval"
    cache = str(tmp_path / "cache")
    code, out, err = run(capsys, "eval", "toolrec", "demo", "--users", "6", "--seeds", "0,1",
                         "--cache-dir", cache, "--out", str(out_dir), *FAST)  # fmt: skip
    assert code == 0, err
    assert out.startswith("demo: leave-one-out, 6 users per seed, mean ± std over seeds\n")
    assert "ToolRec" in out and "retrieve:genre" in out
    with (out_dir / "results.csv").open() as f:
        rows = {r["model"]: r for r in csv.DictReader(f)}
    assert list(rows) == ["popularity", "itemcf", "retrieve:genre", "retrieve:decade",
                          "retrieve:director", "ToolRec"]  # fmt: skip
    assert all(r["n_users"] == "12" and r["seeds"] == "2" for r in rows.values())
    # The scripted loop keeps its first retrieval's order (genre, 10 items): ToolRec's top 10
    # is the genre tool's top 10, user by user.
    for metric in ("recall_mean", "ndcg_mean", "recall_std"):
        assert rows["ToolRec"][metric] == rows["retrieve:genre"][metric]
    record = json.loads((out_dir / "results.json").read_text())
    assert record["split"] == "leave-one-out" and record["seeds"] == [0, 1]
    assert record["sampled"] == {"0": 6, "1": 6}
    assert record["retriever"] == "RankerAttributeRetriever"
    assert record["loops"]["stops"] == {"finish": 12} and record["loops"]["errors"] == 0
    # Four steps, the rank, and the final ranking of every retrieved item.
    assert record["loops"]["llm_calls_per_user"] == 6.0
    assert record["llm"]["calls"] == {"toolrec.rank": 24, "toolrec.simulate": 48}
    loops = (out_dir / "toolrec_loops.jsonl").read_text().splitlines()
    assert len(loops) == 12 and len(json.loads(loops[0])["final"]) == 10
    with (out_dir / "per_seed.csv").open() as f:
        assert len(list(csv.DictReader(f))) == 12


def test_eval_toolrec_trains_the_attribute_tools_on_the_sasrec_backbone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default retriever: stage 1 is the base SASRec's own checkpoint, stage 2 one
    encoder per attribute pattern the demo catalog has; a bad stage-2 setting is one line."""
    out_dir, cache = tmp_path / "eval", str(tmp_path / "cache")
    tiny = ("--set", "sasrec.epochs=2", "--set", "sasrec.dim=8", "--set", "toolrec.tune_epochs=1",
            "--set", "toolrec.attributes=genre,decade")  # fmt: skip
    code, out, err = run(capsys, "eval", "toolrec", "demo", "--users", "4", "--seeds", "0",
                         "--rankers", "sasrec", "--base", "sasrec", "--no-progress",
                         "--cache-dir", cache, "--out", str(out_dir), *tiny)  # fmt: skip
    assert code == 0, err
    record = json.loads((out_dir / "results.json").read_text())
    assert record["retriever"] == "ToolRecRetriever"
    with (out_dir / "results.csv").open() as f:
        models = [r["model"] for r in csv.DictReader(f)]
    assert models == ["sasrec", "retrieve:genre", "retrieve:decade", "ToolRec"]
    sasrec_files = sorted(p.name for p in Path(cache).glob("sasrec-*"))
    assert len(sasrec_files) >= 1 and len(list(Path(cache).glob("toolrec-*"))) == 1
    code, _, err = run(capsys, "eval", "toolrec", "demo", "--users", "4", "--seeds", "0",
                       "--rankers", "sasrec", "--no-progress", "--cache-dir", cache,
                       "--out", str(tmp_path / "bad"), *tiny,
                       "--set", "toolrec.tune_lr=-1")  # fmt: skip
    assert code == 2 and err.startswith(
        "error: toolrec options: retriever_params: tune_lr: Input should be greater than 0"
    )
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "bad").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--users", "0"), "error: --users '0': expected distinct integers >= 1"),
        (("--users", "5,6"), "error: --users '5,6': expected one integer >= 1, like 200"),
        (("--seeds", "a,b"), "error: --seeds 'a,b': expected distinct integers >= 0"),
        (("--seeds", "1,1"), "error: --seeds '1,1': expected distinct integers >= 0"),
        (("--rankers", "popularity,magic"), "error: unknown model 'magic'; expected one of"),
        (("--max-rounds", "30"), "error: --max-rounds 30: expected an integer from 1 to 20"),
        (("--set", "bogus"), "error: --set 'bogus': expected MODEL.KEY=VALUE with MODEL one of"),
        (("--set", "itemcf.nope=1"), "error: itemcf parameter nope: Extra inputs"),
        (("--backend", "openai"), "error: --backend openai needs --model NAME"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    out_dir = tmp_path / "eval"
    code, out, err = run(capsys, "eval", "toolrec", "demo", "--out", str(out_dir),
                         "--cache-dir", str(tmp_path / "c"), *FAST, *args)  # fmt: skip
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert not out_dir.exists()


def test_a_missing_database_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "eval", "toolrec", str(tmp_path / "nope.sqlite"), *FAST)
    assert code == 2 and err.count("\n") == 1 and "no such database" in err
