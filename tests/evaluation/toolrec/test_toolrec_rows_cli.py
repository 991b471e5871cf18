"""`eval toolrec --variants ... --llmrank`: the Fig. 4 ablations and the LLMRank baseline as
rows beside ToolRec, on the demo data with the scripted backend; bad values in one line.

With the scripted model every ranking keeps the order it is given, so: w/ single and
LLMRank score as their candidates' source (the base ranker itemcf); w/ Plan writes the
scripted loop's own plan, so it scores as ToolRec.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from macrs_sim.cli import main

FAST = ("--rankers", "popularity,itemcf", "--base", "itemcf", "--retriever", "ranker",
        "--no-progress", "--users", "6", "--seeds", "0,1")  # fmt: skip
METRICS = ("recall_mean", "recall_std", "ndcg_mean", "ndcg_std")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_ablations_and_llmrank_are_rows_of_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "eval"
    code, out, err = run(capsys, "eval", "toolrec", "demo", *FAST, "--variants", "all",
                         "--llmrank", "--cache-dir", str(tmp_path / "c"),
                         "--out", str(out_dir))  # fmt: skip
    assert code == 0, err
    with (out_dir / "results.csv").open() as f:
        rows = {r["model"]: r for r in csv.DictReader(f)}
    assert list(rows) == ["popularity", "itemcf", "retrieve:genre", "retrieve:decade",
                          "retrieve:director", "ToolRec", "w/ single", "w/ multi", "w/ Plan",
                          "LLMRank"]  # fmt: skip
    table = [line.split()[0] for line in out.splitlines()[2:12]]
    assert table == ["popularity", "itemcf", "retrieve:genre", "retrieve:decade",
                     "retrieve:director", "ToolRec", "w/", "w/", "w/", "LLMRank"]  # fmt: skip
    for metric in METRICS:
        assert rows["w/ single"][metric] == rows["itemcf"][metric]
        assert rows["LLMRank"][metric] == rows["itemcf"][metric]
        assert rows["w/ Plan"][metric] == rows["ToolRec"][metric]
    assert all(r["n_users"] == "12" for r in rows.values())
    record = json.loads((out_dir / "results.json").read_text())
    assert {m: o.get("variant") for m, o in record["rows"].items()} == {
        "ToolRec": "toolrec", "w/ single": "single", "w/ multi": "multi", "w/ Plan": "plan",
        "LLMRank": None,
    }  # fmt: skip
    assert record["rows"]["LLMRank"]["candidates"] == 30
    # rank: ToolRec's and w/ Plan's rank and final ranking (12 each), w/ single's, w/ multi's.
    assert record["llm"]["calls"] == {"toolrec.llmrank": 12, "toolrec.plan": 12,
                                      "toolrec.rank": 72, "toolrec.simulate": 48}  # fmt: skip
    multi = record["variant_loops"]["w/ multi"]
    # none, genre, decade, director (8 8 7 7 of 30), then one ranking call.
    assert multi["termination_rounds"] == {"5": 12} and multi["llm_calls_per_user"] == 1.0
    assert record["variant_loops"]["w/ Plan"]["stops"] == {"finish": 12}
    assert record["llmrank"] == {"users": 12, "errors": 0, "candidates_per_user": 30.0,
                                 "parsed_per_user": 30.0, "duplicates": 0, "unknown": 0,
                                 "filled_per_user": 0.0}  # fmt: skip
    assert record["loops"]["users"] == 12  # ToolRec's own statistics stay its own
    assert len((out_dir / "variant_loops.jsonl").read_text().splitlines()) == 36
    first = json.loads((out_dir / "llmrank.jsonl").read_text().splitlines()[0])
    assert first["candidates"] == 30 and len(first["final"]) == 10


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--variants", "cot"), "error: --variants 'cot': variant: Input should be 'toolrec', "
                                "'single', 'multi' or 'plan'"),
        (("--variants", "toolrec"), "error: --variants 'toolrec': expected distinct ablations"),
        (("--variants", "plan,plan"), "error: --variants 'plan,plan': expected distinct"),
        (("--candidates", "0"), "error: toolrec options: candidates: Input should be greater "
                                "than or equal to 1"),
    ],
)  # fmt: skip
def test_bad_rows_are_one_line_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    out_dir = tmp_path / "eval"
    code, _, err = run(capsys, "eval", "toolrec", "demo", *FAST, *args,
                       "--cache-dir", str(tmp_path / "c"), "--out", str(out_dir))  # fmt: skip
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert not out_dir.exists()
