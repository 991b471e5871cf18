"""RecMind's tools on the fixture films: the memory database, SQL, search backends."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.agents.context import PrepareContext
from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.actions import clean_sql
from macrs_sim.agents.recmind.memory import histories_digest
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.search import WebSearch
from macrs_sim.agents.recmind.spec import RecMindSystemOptions, prepare_system
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import Dataset, open_dataset
from macrs_sim.errors import ConfigError
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.protocol import Sample
from macrs_sim.tools import ToolCallLog
from tests.agents.recmind.helpers import HISTORIES, make_reasoner
from tests.tools.films import write_database


def test_memory_database_holds_the_catalog_and_only_the_visible_histories(
    res: build.RecMindResources,
) -> None:
    with sqlite3.connect(res.database) as conn:
        rows = conn.execute("SELECT * FROM user_ratings ORDER BY user_id, position").fetchall()
        n_items = conn.execute("SELECT COUNT(*) FROM items").fetchone()[0]
    assert rows == [("u1", "1", 5.0, 1), ("u1", "3", 4.0, 2), ("u1", "7", 3.5, 3),
                    ("u2", "1", None, 1)]  # fmt: skip
    assert n_items == 8
    assert (
        res.database.name
        == "recmind-memory-" + histories_digest(res.dataset, HISTORIES) + ".sqlite"
    )


def test_campaign_memory_holds_every_users_interactions_up_to_each_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """u1 rated 1: 5.0, 3: 4.0, 7: 3.5 (in time order); u2 1: 4.0, 2: 2.0; u3 1: 3.0 (and
    an item the catalog lacks). The one sample is u1's, target 3: 3 and 7 (after it) never
    reach memory; every other user's ratings do, the sample's or not."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = write_database(tmp_path / "films.sqlite")
    cfg = DataConfig(dataset=str(db))
    sample = Sample(sample_id="s", user_id="u1", history=("1",), target_id="3", pre_target=("1",))
    ctx = PrepareContext(dataset=open_dataset(cfg), data=cfg, samples=[sample])
    res = prepare_system(RecMindSystemOptions(name="rm"), ctx)
    with closing(sqlite3.connect(res.database)) as conn:
        rows = conn.execute("SELECT * FROM user_ratings ORDER BY user_id, position").fetchall()
        # The paper's example question: this item's average rating, over every user.
        (average,) = conn.execute("SELECT AVG(rating) FROM user_ratings WHERE item_id = '1'")
    assert rows == [("u1", "1", 5.0, 1), ("u2", "1", 4.0, 1), ("u2", "2", 2.0, 2),
                    ("u3", "1", 3.0, 1)]  # fmt: skip
    assert average == ((5.0 + 4.0 + 3.0) / 3,)
    assert res.users == {("1",): "u1"}


def test_clean_sql_strips_fences_and_semicolons() -> None:
    assert clean_sql("```sql\nSELECT 1;\n```") == "SELECT 1"
    assert clean_sql("  SELECT title FROM items ; ") == "SELECT title FROM items"


async def test_sql_writes_runs_and_words_the_query_with_every_call_logged(
    res: build.RecMindResources,
) -> None:
    log = ToolCallLog()
    rules = {"recmind.sql": lambda req: "```sql\nSELECT title FROM items WHERE year = 1986;\n```"}
    r, client = make_reasoner(res, rules, log=log)
    with calling(CallContext(role="recmind.thought", dialogue_id="d1", system="rm", turn=1)):
        obs = await r.act(
            StepOutput(thought="t", action="sql", argument="Which film is from 1986?")
        )
    assert obs.ok and obs.text == "The database returned: title; Heat"
    (rec,) = log.all()
    assert (rec.tool, rec.input, rec.ok, rec.dialogue_id) == (
        "sql",
        {"sql": "SELECT title FROM items WHERE year = 1986"},
        True,
        "d1",
    )
    assert [c.context.role for c in client.calls] == ["recmind.sql", "recmind.sql_answer"]


async def test_sql_that_writes_or_finds_nothing_is_a_dead_end(res: build.RecMindResources) -> None:
    r, client = make_reasoner(res, {"recmind.sql": lambda req: "DELETE FROM items"})
    obs = await r.act(StepOutput(thought="t", action="SQL", argument="wipe"))
    assert not obs.ok and obs.dead_end and obs.text.startswith("Error: refused: only SELECT")
    r, client = make_reasoner(res, {"recmind.sql": lambda req: "SELECT title FROM items WHERE 0"},
                              result_to_text=True)  # fmt: skip
    obs = await r.act(StepOutput(thought="t", action="SQL", argument="none"))
    assert obs.ok and obs.empty and obs.text == "title\n(no rows)"
    assert [c.context.role for c in client.calls] == ["recmind.sql"]  # no wording of nothing


async def test_bm25_search_finds_both_heats_and_remembers_their_ids(
    res: build.RecMindResources,
) -> None:
    r, _ = make_reasoner(res, result_to_text=False)
    obs = await r.act(StepOutput(thought="t", action="Search", argument="heat"))
    assert obs.ok and {h.item_id for h in obs.hits} == {"3", "4"}
    assert obs.text.splitlines()[0].startswith(("Heat (1995). Genres:", "Heat (1986). Genres:"))
    assert r.found == {"3": "Heat (1995)", "4": "Heat (1986)"}
    obs = await r.act(StepOutput(thought="t", action="Search", argument="zzzz"))
    assert obs.empty and obs.text == "No result."


async def test_disabled_tools_are_neither_described_nor_run(res: build.RecMindResources) -> None:
    r, _ = make_reasoner(res, sql_tool=False, search_tool=False, summarize_tool=False)
    assert r.tools.available() == ["Finish"]
    assert (
        r.tools.description == "- Finish[answer], which returns the answer and finishes the task."
    )
    obs = await r.act(StepOutput(thought="t", action="SQL", argument="x"))
    assert obs.text == "Error: unknown action 'SQL'; actions: Finish"


async def test_web_search_reads_serpapi_results_and_never_logs_the_key() -> None:
    asked: list[str] = []

    async def fetch(url: str) -> dict[str, Any]:
        asked.append(url)
        return {"organic_results": [{"title": "Heat (1995 film)", "snippet": "A heist film."},
                                    {"title": "Other", "snippet": "x"}]}  # fmt: skip

    log = ToolCallLog()
    web = WebSearch("SECRET", k=1, fetch=fetch, log=log)
    found = await web.search("heat 1995 genre")
    assert found.text == "Heat (1995 film): A heist film." and found.ok
    assert asked == [
        "https://serpapi.com/search.json?engine=google&q=heat+1995+genre&api_key=SECRET"
    ]
    (rec,) = log.all()
    assert rec.tool == "web_search" and rec.input == {"query": "heat 1995 genre"}
    assert "SECRET" not in rec.model_dump_json()


async def test_web_search_failure_is_an_observation() -> None:
    async def fetch(url: str) -> dict[str, Any]:
        raise TimeoutError("slow")

    found = await WebSearch("k", fetch=fetch).search("q")
    assert not found.ok and found.text == "Error: TimeoutError"


def test_web_search_without_a_key_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SERPAPI_API_KEY", raising=False)
    with pytest.raises(
        ConfigError, match=r'^recmind search_backend "web" needs an API key in \$SERPAPI_API_KEY$'
    ):
        WebSearch.from_env("SERPAPI_API_KEY")


def test_dataset_fixture_is_what_the_digest_names(dataset: Dataset) -> None:
    other = {"u1": [("1", 5.0)]}
    assert histories_digest(dataset, HISTORIES) != histories_digest(dataset, other)


def test_a_react_form_action_is_split_into_tool_and_argument() -> None:
    split = StepOutput(thought="t", action="Search[Drama]")
    assert (split.action, split.argument) == ("Search", "Drama")
    done = StepOutput(thought="t", action=" Finish[4] ")
    assert done.finishes and done.argument == "4"
    kept = StepOutput(thought="t", action="SQL[x]", argument="Which films?")
    assert (kept.action, kept.argument) == ("SQL", "Which films?")
    assert StepOutput(thought="t", action="Dance").action == "Dance"
