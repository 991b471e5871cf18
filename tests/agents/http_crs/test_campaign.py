"""The `http` system's promises at campaign level: a CRS that is down leaves its dialogues
unfinished (run `incomplete`) and the same command, once it is up, finishes them; a huge
reply costs its dialogue and never reaches the store."""

from __future__ import annotations

import json
from pathlib import Path

from aiohttp import web

from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.config import DataConfig, Scenario, parse_scenario
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.store import RunStore
from tests.agents.http_crs.servers import serve
from tests.agents.http_crs.test_limits import MIB, free_port

DATA = DataConfig(history_len=5, min_history=2, n_samples=4)
TITLES = [i.title for i in demo_dataset(DATA).catalog]


def scenario(url: str, **options: object) -> Scenario:
    return parse_scenario(
        {
            "name": "http",
            "data": DATA.model_dump(),
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 1, "final_list_k": 2},
            "systems": [{"name": "Remote", "kind": "http", "url": url, **options}],
        }
    )


async def run(sc: Scenario, out: Path) -> CampaignResult:
    return await run_campaign_async(sc, output_dir=out, progress=False, report=False)


async def crs(request: web.Request) -> web.Response:
    body = await request.json()
    if body["request"] == "final_list":
        return web.json_response({"items": [{"title": t} for t in TITLES[: body["k"]]]})
    return web.json_response({"act": "recommend", "text": "Try these.", "items": []})


async def test_a_crs_that_is_down_leaves_the_run_incomplete_and_the_same_command_redoes_it(
    tmp_path: Path,
) -> None:
    port = free_port()
    sc = scenario(f"http://user:secret@127.0.0.1:{port}/crs")
    first = await run(sc, tmp_path)  # connection refused, every dialogue
    assert (first.status, first.stored, first.unfinished) == ("incomplete", 0, 4)
    with RunStore.open(first.store_path) as store:
        assert store.get_meta("status") == "incomplete"
        assert store.count_errors() == 0
    async with serve(crs, port=port) as up:
        second = await run(sc, tmp_path)
    assert second.run_dir == first.run_dir and second.resumed
    assert (second.status, second.stored, second.unfinished) == ("finished", 4, 0)
    with RunStore.open(second.store_path) as store:
        assert sorted(r.status for r in store.read_results()) == ["failure"] * 4
    # respond and final_list per dialogue, each with the URL's userinfo as Basic auth.
    assert len(up.seen) == 8
    assert {s.authorization for s in up.seen} == {"Basic dXNlcjpzZWNyZXQ="}


async def test_a_huge_reply_is_the_dialogues_error_and_the_store_stays_small(
    tmp_path: Path,
) -> None:
    async def huge(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse()
        await resp.prepare(request)
        await resp.write(b'{"act": "recommend", "text": "')
        for _ in range(320):  # 20 MiB of a valid reply's text
            await resp.write(b"x" * (64 * 1024))
        await resp.write(b'"}')
        return resp

    async with serve(huge) as remote:
        result = await run(scenario(f"{remote.url}/crs"), tmp_path)
    assert (result.status, result.stored) == ("finished", 4)
    with RunStore.open(result.store_path) as store:
        errors = [r.error for r in store.read_results()]
    cap = f"HTTPSystemError: {remote.url}/crs: reply longer than max_reply_bytes = {MIB}"
    assert errors == [cap] * 4
    size = sum(p.stat().st_size for p in result.run_dir.glob("store.sqlite*"))
    assert 0 < size < MIB
    resolved = (result.run_dir / "scenario.resolved.toml").read_text()
    assert f"max_reply_bytes = {MIB}" in resolved


async def test_max_reply_bytes_is_an_option(tmp_path: Path) -> None:
    async with serve(crs) as remote:
        small = scenario(f"{remote.url}/crs", max_reply_bytes=20)
        result = await run(small, tmp_path)
    with RunStore.open(result.store_path) as store:
        errors = {r.error for r in store.read_results()}
    assert errors == {f"HTTPSystemError: {remote.url}/crs: reply longer than max_reply_bytes = 20"}
    assert len(json.dumps({"act": "recommend", "text": "Try these.", "items": []})) > 20
