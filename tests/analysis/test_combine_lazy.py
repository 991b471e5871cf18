"""A comparison's id -> run dict is built on first use and equals the one the eager code built
(9e5ca61); a comparison of one run finds its run and dialogues without it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from macrs_sim.analysis.runs.combine import Comparison, combine_runs
from macrs_sim.analysis.runs.load import RunData, load_run
from tests.analysis.handmade_runs import Script, make_run, make_sample

MACRS: dict[str, object] = {"name": "MACRS", "kind": "macrs"}
LLM: dict[str, object] = {"name": "LLM", "kind": "single_llm"}
SAMPLES = [make_sample("s-1", "m1", "top 10%"), make_sample("s-2", "m2", "bottom 50%")]
MACRS_SCRIPTS = [Script("MACRS", "s-1", ("A", "R+")), Script("MACRS", "s-2", ("R",), final=3)]


def _two_runs(tmp_path: Path) -> tuple[RunData, RunData, Comparison]:
    """Both runs talk as MACRS to the same samples (the same stored ids); b also as LLM."""
    a = load_run(make_run(tmp_path, "a", [MACRS], SAMPLES, MACRS_SCRIPTS))
    scripts = [*MACRS_SCRIPTS, Script("LLM", "s-1", ("R+",))]
    b = load_run(make_run(tmp_path, "b", [MACRS, LLM], SAMPLES, scripts))
    return a, b, combine_runs([a, b])


def test_origin_is_built_on_first_use_as_the_eager_code_built_it(tmp_path: Path) -> None:
    a, b, cmp = _two_runs(tmp_path)
    assert "origin" not in vars(cmp)
    origin = cmp.origin
    # The eager code's dict: each run's relabelled ids, in the runs' order.
    assert list(origin) == [
        "MACRS (a):s-1", "MACRS (a):s-2",
        "MACRS (b):s-1", "MACRS (b):s-2", "LLM:s-1",
    ]  # fmt: skip
    assert [origin[d].name for d in origin] == ["a", "a", "b", "b", "b"]
    assert all(origin[d] is a for d in ("MACRS (a):s-1", "MACRS (a):s-2"))
    assert all(origin[d] is b for d in ("MACRS (b):s-1", "MACRS (b):s-2", "LLM:s-1"))
    assert cmp.origin is origin  # cached
    assert cmp.stored_ids == {
        "MACRS (a):s-1": "MACRS:s-1", "MACRS (a):s-2": "MACRS:s-2",
        "MACRS (b):s-1": "MACRS:s-1", "MACRS (b):s-2": "MACRS:s-2",
    }  # fmt: skip


def test_two_runs_find_each_dialogue_in_its_own_run(tmp_path: Path) -> None:
    a, b, cmp = _two_runs(tmp_path)
    found = cmp.results_by_ids(["MACRS (b):s-2", "nope", "MACRS (a):s-2", "LLM:s-1"])
    assert [(r.dialogue_id, r.system) for r in found] == [
        ("MACRS (b):s-2", "MACRS (b)"), ("MACRS (a):s-2", "MACRS (a)"), ("LLM:s-1", "LLM"),
    ]  # fmt: skip
    assert [cmp.run_of(r) for r in found] == [b, a, b]
    assert cmp.dialogues["run"].tolist() == ["a", "a", "b", "b", "b"]
    assert cmp.dialogues.index.tolist() == [0, 1, 2, 3, 4]


def _one_run(tmp_path: Path) -> tuple[RunData, Comparison]:
    a = load_run(make_run(tmp_path, "a", [MACRS], SAMPLES, MACRS_SCRIPTS))
    return a, combine_runs([a])


def test_one_run_finds_its_run_without_the_dict(tmp_path: Path) -> None:
    a, cmp = _one_run(tmp_path)
    results = list(cmp.results)
    assert [r.dialogue_id for r in results] == ["MACRS:s-1", "MACRS:s-2"]
    assert all(cmp.run_of(r) is a for r in results)
    sample = cmp.samples_of(results[1])
    assert sample is not None and sample.target_id == "m2"
    assert "origin" not in vars(cmp)
    # Its frame is the run's own rows with the run's name, not concatenated or relabelled.
    pd.testing.assert_frame_equal(cmp.dialogues.drop(columns="run"), a.dialogues)
    assert cmp.stored_ids == {}


def test_one_run_results_by_ids_in_the_order_asked(tmp_path: Path) -> None:
    _, cmp = _one_run(tmp_path)
    found = cmp.results_by_ids(["MACRS:s-2", "nope", "MACRS:s-1"])
    assert [r.dialogue_id for r in found] == ["MACRS:s-2", "MACRS:s-1"]


def test_one_run_results_by_ids_without_the_dict(tmp_path: Path) -> None:
    _, cmp = _one_run(tmp_path)
    cmp.results_by_ids(["MACRS:s-1"])
    assert "origin" not in vars(cmp)
