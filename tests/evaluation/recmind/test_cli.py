"""`macrs-sim eval recmind` end to end on the scripted backend, and its bad inputs."""

from __future__ import annotations

import json
import math
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.cli import main
from macrs_sim.evaluation.recmind import recmind_solvers

SEEDLESS = ("seconds", "seconds_per_question", "total_seconds")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(["eval", "recmind", *argv])
    except SystemExit as stop:  # a usage mistake: argparse's one line, then exit 2
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def results(folder: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = json.loads((folder / "results.json").read_text())["results"]
    return rows


def without_times(folder: Path) -> tuple[object, ...]:
    rows = [{k: v for k, v in r.items() if k not in SEEDLESS} for r in results(folder)]
    lines = (folder / "answers.jsonl").read_text().splitlines()
    answers = [{k: v for k, v in json.loads(x).items() if k not in SEEDLESS} for x in lines]
    return rows, answers


def test_rating_on_a_prepared_database_matches_the_hand_computation(
    ml_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rating"
    code, text, _ = run(capsys, "rating", str(ml_db), "--model", "scripted", "--out", str(out))
    assert code == 0
    assert "RecMind task rating, 2 users, seed 0" in text
    zero, few = results(out)
    # zero-shot: the scripted model says the middle of the 0.5-5 scale, rounded: 3
    # -> errors 3-2 = 1 and 3-1 = 2
    assert zero["RMSE"] == pytest.approx(math.sqrt((1 + 4) / 2)) and zero["MAE"] == 1.5
    # few-shot: the mean of the ratings shown: user 1 (4, 5, 3) -> 4, user 2 (3.5, 4.5) -> 4
    # -> errors 2 and 3
    assert few["RMSE"] == pytest.approx(math.sqrt((4 + 9) / 2)) and few["MAE"] == 2.5
    assert zero["llm_calls_per_question"] == 1.0 and zero["unparsable"] == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "answers.jsonl", "results.csv", "results.json", "settings.json"
    ]  # fmt: skip
    settings = json.loads((out / "settings.json").read_text())
    assert settings["task"] == "rating" and settings["model"]["backend"] == "scripted"


@pytest.mark.parametrize("task", ["direct", "sequential"])
def test_ranking_tasks_are_seeded_end_to_end(
    task: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = (task, "demo", "--model", "scripted", "--users", "6", "--candidates", "20")
    folders = [tmp_path / name for name in ("a", "b", "c")]
    for folder, seed in zip(folders, ("3", "3", "4"), strict=True):
        code, text, _ = run(capsys, *common, "--seed", seed, "--out", str(folder))
        assert code == 0 and f"RecMind task {task}, 6 users, seed {seed}" in text
    assert without_times(folders[0]) == without_times(folders[1])
    assert without_times(folders[0]) != without_times(folders[2])
    lines = [json.loads(x) for x in (folders[0] / "answers.jsonl").read_text().splitlines()]
    assert len(lines) == 12  # 6 users x (zero-shot, few-shot)
    for line in lines:
        assert len(line["candidates"]) == 20 and line["target"] in line["candidates"]
        assert line["parsed"] and len(line["ranked"]) == 10  # the scripted top 10
        assert line["position"] == (line["ranked"].index(line["target"]) + 1
                                    if line["target"] in line["ranked"] else None)  # fmt: skip
    header = (folders[0] / "results.csv").read_text().splitlines()[0]
    assert header.startswith("solver,prompting,n,HR@5,HR@10,NDCG@5,NDCG@10,unparsable,errors,")


def test_explanation_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "x"
    code, text, _ = run(capsys, "explanation", "demo", "--model", "scripted", "--users", "3",
                        "--prompting", "few-shot", "--out", str(out))  # fmt: skip
    assert code == 0 and "quality" in text and "rationality" in text
    (row,) = results(out)
    # "<title> has the tone and pace of the films you watch; give it a try." is 15 words
    # or more: quality 1 + words // 8; it names no history title: rationality 1
    assert row["rationality"] == 1.0 and row["quality"] in (2.0, 3.0)
    assert row["judge_calls"] == 3 and row["judge_errors"] == 0


def test_recmind_planners_through_the_agent_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real RecMind agent on the scripted backend, through `build_task_solver`."""
    built: list[dict[str, Any]] = []
    real = recmind_solvers.build_task_solver

    def recording(planner: str, **kwargs: Any) -> Any:
        built.append({"planner": planner, **kwargs})
        return real(planner, **kwargs, cache_dir=tmp_path / "memory")

    monkeypatch.setattr(recmind_solvers, "build_task_solver", recording)
    out = tmp_path / "rm"
    solvers = "direct,recmind-cot,recmind-si,recmind-tot-bfs,recmind-tot-dfs"
    code, text, _ = run(capsys, "direct", "demo", "--model", "scripted", "--users", "3",
                        "--candidates", "10", "--solver", solvers, "--prompting", "zero-shot",
                        "--max-steps", "4", "--out", str(out))  # fmt: skip
    assert code == 0, text
    rows = results(out)
    assert [r["solver"] for r in rows] == solvers.split(",")
    assert [b["planner"] for b in built] == ["cot", "self-inspiring", "tot-bfs", "tot-dfs"]
    assert built[0]["max_steps"] == 4 and built[0]["log"] is not None
    calls = {r["solver"]: float(r["llm_calls_per_question"]) for r in rows}
    # One call answers directly; every planner thinks, acts and answers: more than one.
    assert calls["direct"] == 1.0 and all(calls[s] > 1.0 for s in solvers.split(",")[1:])
    lines = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert all(x["error"] is None for x in lines)
    for line in lines:
        seen = [item for item, _ in built[0]["histories"][line["user_id"]]]
        assert line["target"] not in seen  # the held-out item is never visible
        assert len(seen) >= 2


@pytest.mark.parametrize("users", ["1", "2"])
def test_memory_holds_every_users_visible_ratings_whoever_is_asked(
    users: str, ml_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Every user's last item is held out (1's 4, 2's 6); user 3 (2 items) has no test case
    and keeps both. The memory is the same however many users are asked."""
    made: list[Any] = []
    real = recmind_solvers.build_task_solver

    def recording(planner: str, **kwargs: Any) -> Any:
        made.append(real(planner, **kwargs, cache_dir=tmp_path / "memory"))
        return made[-1]

    monkeypatch.setattr(recmind_solvers, "build_task_solver", recording)
    code, text, _ = run(capsys, "rating", str(ml_db), "--model", "scripted", "--users", users,
                        "--solver", "recmind-cot", "--prompting", "zero-shot",
                        "--out", str(tmp_path / "o"))  # fmt: skip
    assert code == 0, text
    (solver,) = made
    with closing(sqlite3.connect(solver.res.database)) as conn:
        rows = conn.execute("SELECT * FROM user_ratings ORDER BY user_id, position").fetchall()
        # The paper's example question: the average rating of an item, over every user.
        (average,) = conn.execute("SELECT AVG(rating) FROM user_ratings WHERE item_id = '1'")
    assert rows == [
        ("1", "1", 4.0, 1), ("1", "2", 5.0, 2), ("1", "3", 3.0, 3),
        ("2", "5", 3.5, 1), ("2", "1", 4.5, 2),
        ("3", "7", 5.0, 1), ("3", "8", 0.5, 2),
    ]  # fmt: skip
    assert average == ((4.0 + 4.5) / 2,)


def test_a_trained_ranker_orders_the_candidates_by_its_scores(
    ml_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Popularity over the leave-one-out training part: user 1's first two items (1, 2),
    user 2's first (5), user 3's two (7, 8; too few to test): 1, 2, 5, 7, 8 once, the rest
    never. A case's candidates: most counted first, ties in the order shown."""
    out = tmp_path / "o"
    code, text, _ = run(capsys, "direct", str(ml_db), "--model", "scripted", "--solver",
                        "ranker-popularity", "--candidates", "4", "--prompting", "zero-shot",
                        "--out", str(out))  # fmt: skip
    assert code == 0, text
    counts = {"1": 1, "2": 1, "5": 1, "7": 1, "8": 1}
    lines = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert [x["user_id"] for x in lines] == ["1", "2"]
    for x in lines:
        shown = x["candidates"]
        expected = sorted(shown, key=lambda i: (-counts.get(i, 0), shown.index(i)))
        assert x["ranked"] == expected and x["ranked_from"] == "items"
        assert x["llm_calls"] == 0 and x["unmatched"] == []
    # seed 0 showed user 1 (4, 8, 6, 7): 8 and 7 counted -> 8, 7, 4, 6 (target 4 third);
    # user 2 (3, 6, 2, 8): 2 and 8 counted -> 2, 8, 3, 6 (target 6 fourth)
    assert [x["ranked"] for x in lines] == [["8", "7", "4", "6"], ["2", "8", "3", "6"]]
    (row,) = results(out)
    assert row["NDCG@5"] == pytest.approx((1 / math.log2(4) + 1 / math.log2(5)) / 2)
    assert row["HR@5"] == 1.0 and row["unparsable"] == 0 and row["llm_calls_per_question"] == 0


def test_every_planner_option_is_reachable_with_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[dict[str, Any]] = []
    real = recmind_solvers.build_task_solver

    def recording(planner: str, **kwargs: Any) -> Any:
        built.append(kwargs)
        return real(planner, **kwargs, cache_dir=tmp_path / "memory")

    monkeypatch.setattr(recmind_solvers, "build_task_solver", recording)
    out = tmp_path / "o"
    sets = ("--set", "tot_breadth=2", "--set", "tot_votes=2", "--set", "vote_temperature=0.5",
            "--set", "summarize_tool=false", "--set", "vote_temperature=0.4")  # fmt: skip
    code, text, _ = run(capsys, "direct", "demo", "--model", "scripted", "--users", "2",
                        "--candidates", "5", "--solver", "recmind-tot-bfs", "--prompting",
                        "zero-shot", "--temperature", "0.2", *sets, "--out", str(out))  # fmt: skip
    assert code == 0, text
    (kwargs,) = built
    options = kwargs["options"]
    assert (options.tot_breadth, options.tot_votes, options.vote_temperature) == (2, 2, 0.4)
    assert options.summarize_tool is False and kwargs["temperature"] == 0.2
    settings = json.loads((out / "settings.json").read_text())
    assert settings["recmind"] == {"tot_breadth": 2, "tot_votes": 2, "vote_temperature": 0.4,
                                   "summarize_tool": False}  # fmt: skip
    lines = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert all(x["error"] is None for x in lines)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("rating", "demo"), "rating prediction needs ratings; dataset 'demo' has none"),
        (("ranking", "demo"), "invalid choice: 'ranking'"),
        (("direct", "demo", "--solver", "direct,nope"), "--solver 'nope': unknown solver"),
        (("direct", "demo", "--solver", "direct,direct"), "--solver: repeated entries"),
        (("direct", "demo", "--users", "0"), "--users: Input should be greater than or equal to 1"),
        (("direct", "demo", "--k", "5,x"), "--k '5,x': expected positive integers"),
        (("direct", "demo", "--k", "0"), "--k: expected positive integers"),
        (("direct", "demo", "--prompting", "one-shot"), "--prompting: Input should be"),
        (("direct", "demo", "--candidates", "400"), "--candidates 400: user "),
        (("direct", "demo", "--model", "gpt"), "--model 'gpt': expected scripted, embedded or"),
        (("direct", "demo", "--model", "nope.toml"), "nope.toml: scenario file not found"),
        (("direct", "nope.sqlite"), "data.dataset: nope.sqlite: no such database"),
        (("direct", "demo", "--set", "tot_breadth"), "--set 'tot_breadth': expected KEY=VALUE"),
        (
            ("explanation", "demo", "--solver", "direct,ranker-popularity"),
            "--solver 'ranker-popularity': a ranker answers ranking tasks only (direct, ",
        ),
        (("direct", "demo", "--set", "planner=cot"), "--set: planner: not here (--solver names"),
        (("direct", "demo", "--set", "nope=1"), "--set: unknown RecMind option 'nope'; expected"),
        (
            ("direct", "demo", "--set", "tot_breadth=1"),
            "--set: tot_breadth: Input should be greater than or equal to 2",
        ),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    argv: tuple[str, ...], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.chdir(tmp_path)
    model = () if "--model" in argv else ("--model", "scripted")
    code, out, err = run(capsys, *argv, *model, "--out", str(tmp_path / "o"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_out_must_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "results"
    taken.write_text("mine")
    code, _, err = run(capsys, "direct", "demo", "--model", "scripted", "--out", str(taken))
    assert (
        code == 2 and err == f"error: --out {taken}: not a folder (expected where the results go)\n"
    )
    assert taken.read_text() == "mine"


def test_a_scenario_file_names_the_model_and_time_is_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each scripted call takes 0.05 s: one call per question, so at least that per question."""
    scenario = tmp_path / "s.toml"
    scenario.write_text(
        'name = "t"\n[model]\nbackend = "scripted"\nlatency_s = 0.05\n'
        '[[systems]]\nname = "m"\nkind = "macrs"\n'
    )
    out = tmp_path / "o"
    argv = ("--users", "2", "--candidates", "5", "--prompting", "zero-shot", "--out", str(out))
    code, _, _ = run(capsys, "direct", "demo", "--model", str(scenario), *argv)
    assert code == 0
    (row,) = results(out)
    assert 0.05 <= float(row["seconds_per_question"]) < 1.0  # type: ignore[arg-type]
    assert row["llm_calls_per_question"] == 1.0
    settings = json.loads((out / "settings.json").read_text())
    assert settings["model"]["latency_s"] == 0.05 and settings["judge_model"] == settings["model"]
