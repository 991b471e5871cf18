"""The full report over hand-made runs: numbers worked out by hand, files, partial runs."""

from pathlib import Path

import pandas as pd
import pytest
from scipy import stats

from macrs_sim.analysis.report.full import ReportOptions, build_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.errors import DataError
from tests.analysis.handmade_runs import Script, make_run, make_sample

SYSTEMS = [{"name": "MACRS", "kind": "macrs"}, {"name": "LLM", "kind": "single_llm"}]
SAMPLES = [
    make_sample("s-1", "m1", "top 10%"),
    make_sample("s-2", "m2", "top 10%"),
    make_sample("s-3", "m3", "bottom 50%"),
    make_sample("s-4", "m4", "bottom 50%"),
]
SCRIPTS = [
    Script("MACRS", "s-1", ("A", "R+")),
    Script("MACRS", "s-2", ("A", "C", "R+")),
    Script("MACRS", "s-3", ("A", "R", "R", "A", "R"), final=4),
    Script("MACRS", "s-4", ("A", "R", "C", "R", "R")),
    Script("LLM", "s-1", ("R+",)),
    Script("LLM", "s-2", ("R", "R", "R", "R", "R"), final=9),
    Script("LLM", "s-3", ("R", "R", "R", "R", "R")),
    Script("LLM", "s-4", (), error=True),
]


@pytest.fixture
def report(tmp_path: Path) -> Path:
    run = load_run(make_run(tmp_path, "hand", SYSTEMS, SAMPLES, SCRIPTS))
    return build_report([run], tmp_path / "out", ReportOptions(n_resamples=500))


def test_files_and_hand_computed_numbers(report: Path) -> None:
    out = report.parent
    for fig in (
        "fig4_act_ratios",
        "fig5_cumulative_successes",
        "fig6_popularity",
        "act_transitions",
    ):
        assert (out / "figures" / f"{fig}.png").read_bytes()[:4] == b"\x89PNG"
    text = report.read_text()
    # MACRS: successes at turns 2 and 3 of 4 -> 0.50; turns (2 + 3 + 6 + 6) / 4 = 4.25;
    # Hit@5 adds s-3 (target 4th): 0.75. LLM: all 4 count, the s-4 error as a failure:
    # success 1/4, turns (1+6+6+6)/4 = 4.75, Hit@5 1/4, Hit@10 adds s-2 (9th): 2/4.
    assert "| MACRS | 4 | 0 | 0.50 | 4.25 | 0.75 | 0.75 |" in text
    assert "| LLM | 4 | 1 | 0.25 | 4.75 | 0.25 | 0.50 |" in text
    # The secondary view leaves the error out: 3 completed, success 1/3, turns 13/3, Hit@10 2/3.
    completed = text.split("## Completed dialogues only (secondary)", 1)[1]
    assert "| LLM | 3 | 1 | 0.33 | 4.33 | 0.33 | 0.67 |" in completed.split("## ", 1)[0]
    assert "| LLM | single_llm | 4 | 1 | 0.25 [" in text  # Table 1: n 4, 1 error
    # Cumulative successes: MACRS 0,1,2,2,2; LLM 1,1,1,1,1.
    assert "| MACRS | 0 | 1 | 2 | 2 | 2 |" in text
    assert "| LLM | 1 | 1 | 1 | 1 | 1 |" in text
    assert "![Figure 6](figures/fig6_popularity.png)" in text
    assert "## Case studies (Figure 7)" in text and "### MACRS · s-2 · SUCCESS at turn 3" in text
    ratios = pd.read_csv(out / "tables" / "act_ratios.csv")
    turn2 = ratios.query("system == 'MACRS' and turn == 2").set_index("act").ratio
    assert turn2.to_dict() == {"ask": 0.0, "chat": 0.25, "recommend": 0.75}
    pop = pd.read_csv(out / "tables" / "popularity.csv").set_index(["system", "bucket"])
    assert pop.loc[("MACRS", "top 10%"), "success_rate"] == 1.0
    assert pop.loc[("LLM", "bottom 50%"), ["n", "success_rate"]].tolist() == [2, 0.0]
    t1 = pd.read_csv(out / "tables" / "table1.csv").set_index("system")
    assert t1.loc["MACRS", "success"] == 0.5 and t1.loc["LLM", "n"] == 4
    # The paired test pairs all 4 samples, s-4 (LLM's error: 6 turns) included.
    expected = stats.ttest_rel([1, 6, 6, 6], [2, 3, 6, 6]).pvalue
    assert t1.loc["LLM", "turns_p"] == pytest.approx(expected)
    results = pd.read_csv(out / "results.csv").set_index("system")
    assert results.loc["LLM", ["dialogues", "errors", "success_rate"]].tolist() == [4, 1, 0.25]
    only = pd.read_csv(out / "tables" / "results_completed_only.csv").set_index("system")
    assert only.loc["LLM", ["dialogues", "errors"]].tolist() == [3, 1]
    assert only.loc["LLM", "success_rate"] == pytest.approx(1 / 3)
    assert not list(out.rglob("*.tmp"))  # every file was renamed into place
    # MACRS act sequences: A R+ | A C R+ | A R R A R | A R C R R. Out of ask: R in 4 of 5.
    tr = pd.read_csv(out / "tables" / "transitions.csv").query("system == 'MACRS'")
    prob = tr.set_index(["source", "target"]).probability
    assert prob[("START", "ask")] == 1.0 and prob[("ask", "recommend")] == pytest.approx(0.8)
    # Out of recommend (8 turns): success 2, end 2, recommend 2, ask 1, chat 1.
    assert prob[("recommend", "success")] == pytest.approx(2 / 8)
    assert prob[("recommend", "chat")] == pytest.approx(1 / 8)
    assert (out / "results.csv").is_file() and (out / "tables" / "cost_by_system.csv").is_file()


def test_partial_run_and_unknown_reference_or_case(tmp_path: Path) -> None:
    run = load_run(make_run(tmp_path, "p", SYSTEMS, SAMPLES, SCRIPTS[:3], finished=False))
    text = build_report([run], tmp_path / "o", ReportOptions(n_resamples=200)).read_text()
    assert "is partial: 3 of 8 dialogues finished, 5 missing" in text
    assert "| p | `" in text and "| 3/8 (partial) |" in text
    with pytest.raises(DataError, match=r"--reference 'GPT' is not one of the systems: MACRS, LLM"):
        build_report([run], tmp_path / "o2", ReportOptions(reference="GPT"))
    with pytest.raises(DataError, match=r"--case 'x:y': no such dialogue"):
        build_report([run], tmp_path / "o3", ReportOptions(case_ids=("x:y",)))


def test_compare_two_runs_with_different_samples_is_unpaired(tmp_path: Path) -> None:
    a = load_run(make_run(tmp_path, "a", SYSTEMS[:1], SAMPLES, SCRIPTS[:4]))
    b = load_run(make_run(tmp_path, "b", SYSTEMS[1:], SAMPLES[:3], SCRIPTS[4:7]))
    text = build_report([a, b], tmp_path / "cmp", ReportOptions(n_resamples=200)).read_text()
    assert text.startswith("# Comparison: a, b\n")
    assert "different sample sets (a: 4, b: 3; 3 shared)" in text
    assert "Tests: two-sided unpaired (equal-variance) Student's t-test against MACRS" in text
