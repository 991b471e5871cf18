"""The report's realism section when the scenario names a reference corpus."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macrs_sim.analysis.realism.section import realism_section
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.config import parse_scenario, scenario_to_toml
from macrs_sim.data.catalog import Catalog
from tests.analysis.handmade_runs import Script, make_run, make_sample

TURNS = [
    {"speaker": "seeker", "text": "Hi, a film please."},
    {"speaker": "recommender", "text": "Heat?"},
    {"speaker": "seeker", "text": "Great, thanks!"},
]


def _run(tmp_path: Path, corpus: str | None) -> Path:
    run = make_run(
        tmp_path, "r", [{"name": "s", "kind": "single_llm"}], [make_sample("u-1", "m135")],
        [Script("s", "u-1", ("R+",))],
    )  # fmt: skip
    if corpus is not None:
        with (run / "scenario.resolved.toml").open("a") as f:
            f.write(f"[simulator]\nreference_corpus = {json.dumps(corpus)}\n")
    return run


def test_the_section_is_there_only_when_the_scenario_names_a_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved: list[Path] = []  # the figure itself is drawn in test_realism_cli.py
    monkeypatch.setattr("macrs_sim.analysis.realism.section.realism_figure", lambda *a: None)
    monkeypatch.setattr(
        "macrs_sim.analysis.realism.section.save_png_atomic", lambda fig, path: saved.append(path)
    )
    corpus = tmp_path / "people.jsonl"
    corpus.write_text(json.dumps({"id": "a", "turns": TURNS}) + "\n", encoding="utf-8")
    plain = load_run(_run(tmp_path / "a", None))
    assert realism_section([plain], tmp_path / "out-a", None) == []
    named = load_run(_run(tmp_path / "b", str(corpus)))
    lines = realism_section([named], tmp_path / "out-b", lambda run: Catalog.demo())
    assert "## Simulated users beside people" in lines and "### By user turn position" in lines
    assert "![the distributions side by side](figures/realism.png)" in lines
    assert saved == [tmp_path / "out-b" / "figures" / "realism.png"]


def test_a_corpus_not_at_hand_is_one_line_in_the_report(tmp_path: Path) -> None:
    run = load_run(_run(tmp_path, str(tmp_path / "gone.jsonl")))
    assert realism_section([run], tmp_path / "out", None)[-1] == (
        "The reference corpus gone.jsonl is not at hand: no table."
    )


def test_the_scenario_keeps_the_corpus_it_names() -> None:
    scenario = parse_scenario(
        {
            "name": "x",
            "model": {"backend": "scripted"},
            "simulator": {"kind": "agenda", "reference_corpus": "/data/train_data.jsonl"},
            "systems": [{"name": "s", "kind": "single_llm"}],
        }
    )
    assert scenario.simulator.reference_corpus == "/data/train_data.jsonl"
    assert 'reference_corpus = "/data/train_data.jsonl"' in scenario_to_toml(scenario)


def test_compare_of_two_runs_naming_the_corpus_says_whose_users_are_closer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("macrs_sim.analysis.realism.section.realism_figure", lambda *a: None)
    monkeypatch.setattr("macrs_sim.analysis.realism.section.save_png_atomic", lambda f, p: p)
    corpus = tmp_path / "people.jsonl"
    corpus.write_text(json.dumps({"id": "a", "turns": TURNS}) + "\n", encoding="utf-8")
    runs = [load_run(_run(tmp_path / d, str(corpus))) for d in ("a", "b")]
    lines = realism_section(runs, tmp_path / "out", None)
    header = next(line for line in lines if line.startswith("| measure |"))
    assert header.endswith("| r (2) − r [95% CI] | closer to people |")


def test_a_corpus_name_is_data_in_the_report(tmp_path: Path) -> None:
    # A file named like markup: shown as typed, not as a tag or an escape sequence.
    run = load_run(_run(tmp_path, str(tmp_path / "<img src=x>\x1b[31m.jsonl")))
    line = realism_section([run], tmp_path / "out", None)[-1]
    assert "<img" not in line and "\x1b" not in line
    assert line.startswith("The reference corpus ") and "is not at hand: no table." in line
