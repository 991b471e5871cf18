"""Issue 38 §4: the shipped Table 1 scenario tests every row against the single-LLM row.

The paper's Table 1 marks "significant improvement over ChatGPT", its single-agent LLM
row; the report tests against the first system unless --reference names another."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from macrs_sim.analysis.report.full import ReportOptions, _reference
from macrs_sim.config import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.mark.parametrize("stem", ["paper_table1", "paper_table1_movielens"])
def test_the_reference_of_the_shipped_table1_is_the_single_llm_row(stem: str) -> None:
    scenario = load_scenario(SCENARIOS / f"{stem}.toml")
    names = [s.name for s in scenario.systems]
    kinds = {s.name: s.kind for s in scenario.systems}
    cmp = SimpleNamespace(system_names=names)
    reference = _reference(cmp, ReportOptions().reference)  # type: ignore[arg-type]
    assert reference == "single-LLM" and kinds[reference] == "single_llm"
    # The rows are still the paper's five: the baseline, MACRS and its three ablations.
    assert names == [
        "single-LLM",
        "MACRS",
        "MACRS w/o IR",
        "MACRS w/o SR",
        "MACRS w/o SR+IR",
    ]
