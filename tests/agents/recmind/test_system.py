"""RecMind as a conversational recommender: grounding, turns, the fallback list, a campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.grounding import ground_titles
from macrs_sim.agents.recmind.options import PLANNERS, RecMindOptions
from macrs_sim.agents.recmind.system import GUEST, RecMind
from macrs_sim.agents.registry import known_kinds, resolve_entries
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.errors import ConfigError
from macrs_sim.protocol import DialogueState, ItemRef, UserTurn
from macrs_sim.store import RunStore
from macrs_sim.tools import ToolCallLog
from tests.agents.recmind.helpers import make_reasoner


def test_grounding_prefers_found_remakes_and_skips_watched_items(
    res: build.RecMindResources,
) -> None:
    titles = ["Heat", "Heat", "Star Voyage", "Nowhere Film", "Laugh Factory (2010)"]
    # "Heat" names two films: the one a tool found (4) wins; the second "Heat" is then
    # only 3, which was watched: dropped. Star Voyage (1) was watched too.
    refs = ground_titles(titles, res.resolver, {"4": "Heat (1986)"}, {"1", "3"}, k=5)
    assert refs == [
        ItemRef(title="Heat (1986)", item_id="4", score=1.0, method="exact"),
        ItemRef(title="Nowhere Film"),
        ItemRef(title="Laugh Factory (2010)", item_id="5", score=1.0, method="exact"),
    ]
    # Nothing found and nothing skipped: "Heat" stays ambiguous, for the loop to ground.
    assert ground_titles(["Heat"], res.resolver, {}, set(), k=3) == [ItemRef(title="Heat")]
    assert len(ground_titles(["Heat (1995)", "Quiet Rooms", "Galaxy Kids"], res.resolver,
                             {}, set(), k=2)) == 2  # fmt: skip


def _system(res: build.RecMindResources, log: ToolCallLog | None = None, **opts: object) -> RecMind:
    r, _ = make_reasoner(res, None, log=log, **opts)
    options = RecMindOptions.model_validate(opts)
    users: dict[tuple[str, ...], str] = {("1", "3", "7"): "u1"}
    res = build.RecMindResources(res.dataset, res.database, res.resolver, res.bm25, users)
    return RecMind("rm", r, res, options, history=("1", "3", "7"), log=log)


@pytest.mark.parametrize("planner", PLANNERS)
async def test_a_turn_recommends_grounded_items_and_explains_its_tree(
    res: build.RecMindResources, planner: str
) -> None:
    system = _system(res, planner=planner)
    state = DialogueState(dialogue_id="d1", opening=UserTurn(text="A ghost story in a mansion?"))
    turn = await system.respond(state)
    # Search "A ghost story in a mansion?" -> Haunted Manor (6) first; the scripted Finish
    # names what the search found; watched items (1, 3, 7) never come back.
    assert turn.act == "recommend" and turn.items[0].item_id == "6"
    assert all(ref.item_id not in {"1", "3", "7"} for ref in turn.items)
    assert turn.explain["planner"] == planner and turn.explain["user_id"] == "u1"
    tree = turn.explain["tree"]
    assert tree["nodes"][tree["final_path"][-1]]["status"] == "finish"
    assert turn.explain["llm_calls"] > 0 and turn.explain["errors"] == []


async def test_the_fallback_list_needs_no_model_and_skips_what_was_seen(
    res: build.RecMindResources,
) -> None:
    log = ToolCallLog()
    system = _system(res, log=log, planner="cot")
    state = DialogueState(dialogue_id="d1", opening=UserTurn(text="A ghost story in a mansion?"))
    turn = await system.respond(state)
    shown = [ref.item_id for ref in turn.items]
    given = [ItemRef(title="Laugh Factory", item_id="5")]
    calls = system.reasoner.caller.usage.calls
    final = await system.final_list(state, 3, given)
    assert system.reasoner.caller.usage.calls == calls  # no model call
    ids = [ref.item_id for ref in final]
    assert len(ids) == 3 and not set(ids) & ({"1", "3", "7", "5"} | set(shown))
    assert all(ref.method == "exact" for ref in final)
    assert log.all()[-1].role == "recmind.final_list"


def test_a_person_in_chat_is_the_guest(res: build.RecMindResources) -> None:
    r, _ = make_reasoner(res)
    assert RecMind("rm", r, res, RecMindOptions()).user_id == GUEST


async def test_recmind_planners_run_in_a_campaign_with_the_agenda_user(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert "recmind" in known_kinds()
    systems = [{"name": p, "kind": "recmind", "planner": p, "max_steps": 3} for p in PLANNERS]
    scenario = parse_scenario({
        "name": "rm", "model": {"backend": "scripted"}, "data": {"n_samples": 2},
        "simulator": {"kind": "agenda"}, "protocol": {"max_turns": 2}, "systems": systems,
    })  # fmt: skip
    result = await run_campaign_async(scenario, output_dir=tmp_path, progress=False, report=False)
    assert result.status == "finished" and result.stored == 8
    with RunStore.open(result.store_path) as store:
        results = store.read_results()
    assert all(r.status != "error" for r in results), [r.error for r in results]
    planners = {r.system: r.exchanges[0].system.explain["planner"] for r in results}
    assert planners == {p: p for p in PLANNERS}
    shown = [i for r in results for ex in r.exchanges for i in ex.system.items]
    assert shown and all(i.item_id is not None for i in shown)
    assert list((tmp_path / "xdg" / "macrs-sim" / "recmind").glob("recmind-memory-*.sqlite"))


def test_a_bad_option_is_one_line() -> None:
    scenario = parse_scenario({"name": "x", "systems": [
        {"name": "rm", "kind": "recmind", "planner": "tot"}]})  # fmt: skip
    with pytest.raises(ConfigError, match=r'^systems\[0\] \(kind "recmind"\): planner: Input '):
        resolve_entries(scenario.systems)
