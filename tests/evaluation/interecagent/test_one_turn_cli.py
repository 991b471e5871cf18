"""`eval interecagent one-turn` end to end on the scripted backend, over the hand-written
release of fixture_data.py, every number worked out by hand there and below.

The scripted model: the retrieval user says "I liked <first history title>." then
"Something <target's first genre> from the <decade>."; InteRecAgent (ranker = popularity:
the dataset's interaction counts) plans hard filter -> rank -> fetch k, dropping the liked
item; the ranking user lists the candidates and InteRecAgent stores, ranks and fetches them.
"""

from __future__ import annotations

import csv
import functools
import json
import math
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.cli import main
from macrs_sim.evaluation.interecagent import run as run_module
from tests.evaluation.interecagent.fixture_data import write_database

SCENARIO = """name = "one_turn"
[model]
backend = "scripted"
[[systems]]
name = "MACRS"
kind = "macrs"
[[systems]]
name = "IRA"
kind = "interecagent"
ranker = "popularity"
"""


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    # The scripted plans never use the text model: leave it unloaded (~20 s).
    fast = functools.partial(run_module.run_one_turn, use_text_model=False)
    monkeypatch.setattr(run_module, "run_one_turn", fast)
    (tmp_path / "s.toml").write_text(SCENARIO, encoding="utf-8")
    return write_database(tmp_path), tmp_path / "s.toml"


def _run(
    capsys: pytest.CaptureFixture[str], tmp: Path, db: Path, *args: str
) -> tuple[int, str, str]:
    argv = ["eval", "interecagent", "one-turn", str(db), "--n", "3", "--baselines", "popularity",
            "--out", str(tmp / "out"), "--cache-dir", str(tmp / "models"), "--no-progress",
            *(() if "--llm-rows" in args else ("--llm-rows", "none")), *args]  # fmt: skip
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _cases(folder: Path) -> dict[tuple[str, str], dict[str, str]]:
    with (folder / "cases.csv").open(encoding="utf-8") as f:
        return {(r["user_id"], r["system"]): r for r in csv.DictReader(f)}


def _record(tmp: Path) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((tmp / "out" / "results.json").read_text("utf-8"))
    return result


def test_retrieval_recall_by_hand(
    setup: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, scenario = setup
    code, out, _ = _run(capsys, tmp_path, db, "--task", "retrieval", "--k", "2",
                        "--scenario", str(scenario))  # fmt: skip
    assert code == 0, out
    cases = _cases(tmp_path / "out")
    # User 1 wants Action from the 1990s: only Heat (1995), the target: a hit at rank 1.
    # User 2 (liked Heat 1986): Crime 1990s by popularity: Goodfellas 4, Se7en 2 -> rank 2.
    # User 3 (liked Heat 1995, dropped): Goodfellas, Se7en; Casino (1) misses.
    ira = [(cases[u, "InteRecAgent"]["items"], cases[u, "InteRecAgent"]["rank"]) for u in "123"]
    assert ira == [("1", "1"), ("7 4", "2"), ("7 4", "")]
    # Popularity on the training data: Goodfellas 4, then ties in catalog order.
    pop = [(cases[u, "popularity"]["items"], cases[u, "popularity"]["rank"]) for u in "123"]
    assert pop == [("7 4", ""), ("7 4", "2"), ("7 2", "")]
    lines = out.splitlines()
    assert lines[0] == (
        "ml-tiny: one-turn retrieval, 3 of 3 generated requests, seed 0"
        " (model: scenario one_turn, system 'IRA')"
    )
    assert lines[2].split() == ["InteRecAgent", "3", "0", "0.667", "1.667", "3.000"]
    assert lines[3].split() == ["popularity", "3", "0", "0.333", "2.000", "0.000"]
    assert lines[4].startswith("requests: written by the model under test")
    # One generation per case, then InteRecAgent's plan-first turn: planner, reply, critic.
    assert lines[5].startswith(
        "model calls: 12 (interecagent.one_turn_retrieval 3, interecagent.planner 3,"
        " interecagent.reply 3, interecagent.critic 3), "
    )
    record = _record(tmp_path)
    assert record["metric"] == "Recall@2" and record["split"] == "leave-one-out"
    user1 = next(c for c in record["cases"] if c["user_id"] == "1")
    # Heat (1986) shares the target's name: the user's words are redacted.
    assert user1["redacted"] and [u["text"] for u in user1["utterances"]] == [
        "I liked that movie (1986).",
        "Nice. What are you in the mood for now?",
        "Something Action from the 1990s. Please give me 2 recommendations based on the chat"
        " history.",
    ]


def test_ranking_ndcg_by_hand(
    setup: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, scenario = setup
    code, out, _ = _run(capsys, tmp_path, db, "--task", "ranking", "--k", "4", "--seed", "0",
                        "--scenario", str(scenario))  # fmt: skip
    assert code == 0, out
    cases = _cases(tmp_path / "out")
    # Candidates: each user's three unseen films and the target. InteRecAgent ranks by the
    # counts without the targets: Goodfellas 4 > Se7en 2 > Heat 1995 1 > Casino 0, so the
    # targets land at 3 (Heat 1995), 2 (Se7en) and 4 (Casino). User 3's Heat 1986 and Se7en
    # tie at 2 and keep the order given (seed 0: Heat 1986 first); had Se7en's held-out
    # interaction been counted (3), Se7en would come first.
    assert [cases[u, "InteRecAgent"]["items"] for u in "123"] == ["7 4 1 5", "7 4 1 5", "7 2 4 5"]
    given = {c["user_id"]: c["candidates"] for c in _record(tmp_path)["cases"]}
    assert given["3"].index("2") < given["3"].index("4")
    expected = (1 / math.log2(4) + 1 / math.log2(3) + 1 / math.log2(5)) / 3  # 0.5205
    assert out.splitlines()[2].split() == ["InteRecAgent", "3", "0", f"{expected:.3f}", "4.000",
                                           "3.000"]  # fmt: skip
    # The training counts give the same ranks (user 3's tie Heat 1986 / Se7en is above Casino).
    assert [cases[u, "popularity"]["rank"] for u in "123"] == ["3", "2", "4"]
    with (tmp_path / "out" / "results.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["system"] for r in rows] == ["InteRecAgent", "popularity"]
    assert math.isclose(float(rows[1]["NDCG@4"]), expected)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--task", "retrieval", "--k", "0"], "error: --k 0: expected 1 to 20 (items to retrieve)"),
        (["--task", "ranking", "--k", "1"], "error: --k 1: expected 2 to 20 (candidates to rank)"),
        (["--task", "retrieval", "--n", "0"], "error: --n 0: expected a positive integer"),
        (["--task", "retrieval", "--n", "4"], "error: --n 4: ml-tiny has only 3 test users"),
        (["--task", "ranking", "--k", "5"], "has only 3 items never interacted with, so 4"),
        (["--task", "retrieval", "--baselines", "svd"], "error: --baselines: unknown ranker 'svd'"),
        (["--task", "retrieval", "--backend", "scripted", "--scenario", "x.toml"],
         "error: --scenario and --backend: give one"),
        (["--task", "retrieval", "--out", "FILE"], "error: --out FILE: not a folder"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_writes_nothing(
    setup: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    db, _ = setup
    if "FILE" in args:
        (tmp_path / "FILE").write_text("")
        args = [str(tmp_path / "FILE") if a == "FILE" else a for a in args]
        message = message.replace("FILE", str(tmp_path / "FILE"))
    argv = ["eval", "interecagent", "one-turn", str(db), "--n", "3", "--no-progress",
            "--cache-dir", str(tmp_path / "models"), *args]  # fmt: skip
    argv += [] if "--backend" in args else ["--backend", "scripted"]
    argv += [] if "--out" in args else ["--out", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("error: ") and err.count("\n") == 1, err
    assert not (tmp_path / "out").exists()


def test_a_scenario_without_interecagent_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.toml"
    path.write_text('name = "x"\n[model]\nbackend = "scripted"\n[[systems]]\nname = "M"\n'
                    'kind = "macrs"\n')  # fmt: skip
    argv = ["eval", "interecagent", "one-turn", "demo", "--task", "retrieval", "--scenario",
            str(path), "--out", str(tmp_path / "out")]  # fmt: skip
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "error: scenario 'x': no [[systems]] entry with kind = \"interecagent\" (its options and"
        " model are what the one-turn task runs)\n"
    )
    assert not (tmp_path / "out").exists()
