"""A chat that saves nothing leaves no folder it made for the response cache: not only the
cache's own folder but every one above it that was not there (a new output_dir's parents)."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from macrs_sim.data.catalog import Catalog
from macrs_sim.interactive.chat import ChatOptions, chat
from macrs_sim.interactive.render import ChatView
from macrs_sim.interactive.save import absent_cache_paths, remove_created
from macrs_sim.llm.scripted import ScriptedRequest
from tests.interactive.chat_fixtures import rules_recommending, scripted_scenario
from tests.interactive.test_chat import person


def test_every_missing_folder_up_to_the_first_that_exists_is_recorded(tmp_path: Path) -> None:
    cache = tmp_path / "a" / "b" / "runs" / "llm_cache.sqlite"
    assert absent_cache_paths(cache) == [
        cache,
        tmp_path / "a" / "b" / "runs" / "llm_cache.sqlite-wal",
        tmp_path / "a" / "b" / "runs" / "llm_cache.sqlite-shm",
        tmp_path / "a" / "b" / "runs" / "llm_cache.sqlite-journal",
        tmp_path / "a" / "b" / "runs",
        tmp_path / "a" / "b",
        tmp_path / "a",
    ]
    (tmp_path / "a").mkdir()
    assert absent_cache_paths(cache)[4:] == [tmp_path / "a" / "b" / "runs", tmp_path / "a" / "b"]


def test_removed_deepest_first_and_a_folder_something_else_uses_is_kept(tmp_path: Path) -> None:
    cache = tmp_path / "a" / "b" / "runs" / "llm_cache.sqlite"
    created = absent_cache_paths(cache)
    cache.parent.mkdir(parents=True)
    cache.write_bytes(b"x")
    (cache.parent / "llm_cache.sqlite-wal").write_bytes(b"x")
    (tmp_path / "a" / "notes.txt").write_text("someone else's")
    remove_created(list(reversed(created)))  # whatever the order given
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == [
        "a",
        "a/notes.txt",
    ]


async def test_a_session_that_saves_nothing_leaves_no_new_output_folder(
    tmp_path: Path, catalog: Catalog
) -> None:
    scenario = scripted_scenario(tmp_path, catalog, max_structured_retries=0)
    before = sorted(tmp_path.iterdir())
    rules = rules_recommending(catalog, "Up")

    def broken(req: ScriptedRequest) -> object:
        raise RuntimeError("planner fell over")

    rules["macrs.planner"] = broken  # type: ignore[assignment]
    options = ChatOptions(session_id="person-1", output_dir=tmp_path / "new" / "deeper" / "runs")
    view = ChatView(Console(file=io.StringIO(), color_system=None))
    outcome = await chat(scenario, options, person("hi"), view, scripted_rules=rules)
    assert outcome.run_dir is None
    assert sorted(tmp_path.iterdir()) == before  # no new/, no new/deeper/
