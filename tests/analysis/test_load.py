"""load_run and combine_runs on hand-made run directories."""

from pathlib import Path

import pytest

from macrs_sim.agents.registry import variant_label
from macrs_sim.analysis.runs.combine import combine_runs
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.errors import DataError
from tests.analysis.handmade_runs import Script, make_run, make_sample

SYSTEMS = [
    {"name": "MACRS", "kind": "macrs"},
    {"name": "noSR", "kind": "macrs", "strategy_reflection": False},
    {"name": "LLM", "kind": "single_llm"},
]
SAMPLES = [make_sample("s-1", "m1", "top 10%"), make_sample("s-2", "m2", "bottom 50%")]
SCRIPTS = [
    Script("MACRS", "s-1", ("A", "R+")),
    Script("MACRS", "s-2", ("A", "C", "R", "R", "A"), final=3),
    Script("noSR", "s-1", ("R", "R", "R", "R", "R"), final=7),
    Script("noSR", "s-2", (), error=True),
    Script("LLM", "s-1", ("R+",)),
]


def test_load_run_frames(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path, "t1", SYSTEMS, SAMPLES, SCRIPTS, finished=False))
    assert [(s.name, s.variant) for s in run.systems] == [
        ("MACRS", "full"),
        ("noSR", "w/o SR"),
        ("LLM", "single_llm"),
    ]
    assert (run.expected, run.finished, run.missing, run.complete) == (6, 5, 1, False)
    d = run.dialogues.set_index("dialogue_id")
    assert d.loc["MACRS:s-1", "success"] == 1.0 and d.loc["MACRS:s-1", "turns"] == 2
    # failure: max_turns + 1 = 6 turns; target 3rd in the list -> hit@5 and hit@10
    assert d.loc["MACRS:s-2", ["success", "turns", "hit@5", "hit@10"]].tolist() == [0, 6, 1, 1]
    assert d.loc["noSR:s-1", ["hit@5", "hit@10", "final_rank"]].tolist() == [0, 1, 7]
    # an error counts as a failure: 0, max_turns + 1 = 6 turns, never a hit
    error = d.loc["noSR:s-2", ["status", "success", "turns", "hit@5", "hit@10"]].tolist()
    assert error == ["error", 0, 6, 0, 0]
    assert d.loc["MACRS:s-1", "bucket"] == "top 10%"
    assert len(run.turns) == 2 + 5 + 5 + 0 + 1
    assert run.turns.query("dialogue_id == 'MACRS:s-2'").act.tolist() == [
        "ask",
        "chat",
        "recommend",
        "recommend",
        "ask",
    ]
    assert len(run.calls) == 2 * 13 and set(run.samples.bucket) == {"top 10%", "bottom 50%"}


def test_variant_labels() -> None:
    assert variant_label({"kind": "macrs", "information_reflection": False}) == "w/o IR"
    both_off = {"kind": "macrs", "information_reflection": False, "strategy_reflection": False}
    assert variant_label(both_off) == "w/o SR+IR"


def test_bad_run_directories(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="run directory not found"):
        load_run(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match=r"not a run directory \(no store.sqlite\)"):
        load_run(tmp_path / "empty")
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "store.sqlite").write_text("not sqlite")
    with pytest.raises(DataError, match="not a macrs-sim run store"):
        load_run(tmp_path / "junk")


def test_combine_labels_collisions_and_decides_pairing(tmp_path: Path) -> None:
    a = load_run(make_run(tmp_path, "a", SYSTEMS[:1], SAMPLES, SCRIPTS[:2]))
    b = load_run(
        make_run(tmp_path, "b", SYSTEMS[:1] + SYSTEMS[2:], SAMPLES, SCRIPTS[:2] + SCRIPTS[4:])
    )
    both = combine_runs([a, b])
    assert both.system_names == ["MACRS (a)", "MACRS (b)", "LLM"]
    assert both.paired and both.notes == [
        "Run b (b) is partial: 3 of 4 dialogues finished, 1 missing (still running or "
        "interrupted); its numbers cover what finished."
    ]
    assert sorted(set(both.dialogues.system)) == ["LLM", "MACRS (a)", "MACRS (b)"]
    other = load_run(make_run(tmp_path, "c", SYSTEMS[2:], SAMPLES[:1], SCRIPTS[4:]))
    mixed = combine_runs([a, other])
    assert not mixed.paired
    assert mixed.notes[-1].startswith("The runs used different sample sets (a: 2, c: 1; 1 shared)")
