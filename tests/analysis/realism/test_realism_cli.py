"""`macrs-sim realism`: table, realism.md and the figure; two runs say whose users are closer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macrs_sim.cli import main
from macrs_sim.data.catalog import Catalog
from tests.analysis.handmade_runs import Script, make_run, make_sample

SEEKER = {
    "id": "h1",
    "turns": [
        {"speaker": "seeker", "text": "Hi, a film please."},
        {"speaker": "recommender", "text": "Heat?", "titles": ["Heat (1995)"]},
        {"speaker": "seeker", "text": "Sounds great, thanks a lot!"},
    ],
    "recommendations": [{"title": "Heat (1995)", "turn": 1, "answer": "accepted"}],
}


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    monkeypatch.setattr("macrs_sim.analysis.report.summary.run_catalog", lambda _: Catalog.demo())
    samples = [make_sample("u-1", "m135"), make_sample("u-2", "m137")]
    system = [{"name": "s", "kind": "single_llm"}]
    made = []
    for name, acts in (("near", ("R+",)), ("far", ("A", "A", "R", "R"))):
        scripts = [Script("s", "u-1", acts), Script("s", "u-2", acts)]
        made.append(make_run(tmp_path, name, system, samples, scripts))
    return made


def _corpus(tmp_path: Path) -> Path:
    path = tmp_path / "people.jsonl"
    path.write_text("\n".join(json.dumps(SEEKER) for _ in range(4)) + "\n", encoding="utf-8")
    return path


def test_realism_writes_the_table_the_report_and_the_figure(
    runs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = _corpus(tmp_path)
    assert main(["realism", str(runs[0]), "--reference", str(corpus), "--draws", "20"]) == 0
    out = capsys.readouterr().out
    assert "| turn length (words) (W1) |" in out
    assert "corpus: 4 dialogues (turns)" in out
    md = (runs[0] / "realism" / "realism.md").read_text(encoding="utf-8")
    assert "# Simulated users beside people" in md and "## By user turn position" in md
    assert (runs[0] / "realism" / "realism.png").stat().st_size > 10_000


def test_two_runs_say_whose_users_are_closer(
    runs: list[Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("macrs_sim.analysis.realism.report.save_png_atomic", lambda fig, path: path)
    corpus = _corpus(tmp_path)
    args = ["realism", *map(str, runs), "--reference", str(corpus), "--out", str(tmp_path / "o")]
    assert main([*args, "--draws", "40"]) == 0
    rows = {line.split(" | ")[0]: line for line in capsys.readouterr().out.splitlines()}
    # people and "near" accept every recommendation (TV 0), "far" none (TV 1): far - near = 1
    assert rows["| answers to recommendations (TV)"].endswith(
        "| 1.000 [1.000, 1.000] | near closer |"
    )
    assert rows["| turn of the first accept (W1)"].endswith("| – | – |")  # far never accepts


def test_a_missing_or_unreadable_corpus_is_one_line(
    runs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["realism", str(runs[0]), "--reference", str(tmp_path / "none.jsonl")]) == 2
    assert capsys.readouterr().err.strip().endswith("corpus file not found")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe\n")
    assert main(["realism", str(runs[0]), "--reference", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no dialogue could be read (not UTF-8 (line 1))" in err
