"""The search tool is never dropped in silence: without bm25s a run with it refuses to start."""

from __future__ import annotations

import pytest

from macrs_sim.agents.checks import CheckContext
from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.spec import RecMindSystemOptions, check_system
from macrs_sim.data.dataset import Dataset
from macrs_sim.errors import ConfigError
from tests.agents.recmind.helpers import make_reasoner


def test_missing_bm25s_refuses_to_build_the_search_tool(
    res: build.RecMindResources, monkeypatch: pytest.MonkeyPatch
) -> None:
    without = build.RecMindResources(res.dataset, res.database, res.resolver, None)
    with pytest.raises(ConfigError, match=r"^search_tool: the \"bm25\" search needs the bm25s"):
        make_reasoner(without)
    # Search turned off: the model is told of the other tools only.
    r, _ = make_reasoner(without, search_tool=False)
    assert "Search[" not in r.tools.description and "SQL[" in r.tools.description


def test_missing_bm25s_fails_the_pre_run_check(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(build, "has_bm25", lambda: False)
    with pytest.raises(ConfigError) as err:
        check_system(RecMindSystemOptions(name="rm"), CheckContext(dataset))
    assert str(err.value) == build.BM25_MISSING and "\n" not in str(err.value)
    check_system(RecMindSystemOptions(name="rm", search_tool=False), CheckContext(dataset))
    monkeypatch.setattr(build, "has_bm25", lambda: True)
    check_system(RecMindSystemOptions(name="rm"), CheckContext(dataset))
