"""The `http` system against a small server on 127.0.0.1: good replies, faults that cost
one dialogue each (a reply that does not fit, a timeout, a 404), and a 500 that leaves its
dialogue unfinished (an outage: the same command runs it again)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import DataConfig, parse_scenario
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.samples import build_samples
from macrs_sim.store import RunStore

DATA = DataConfig(history_len=5, min_history=2, n_samples=6)
CATALOG = demo_dataset(DATA).catalog
SAMPLES = sorted(build_samples(demo_dataset(DATA), DATA), key=lambda s: s.sample_id)
# One faulty behaviour per sample; the last two samples get a well-behaved server.
FAULTS = dict(zip((s.sample_id for s in SAMPLES), ("bad", "slow", "500", "404"), strict=False))
requests: list[dict[str, Any]] = []


async def crs(request: web.Request) -> web.Response:
    body = await request.json()
    requests.append(body)
    dialogue = body["dialogue"]
    fault = next((f for s, f in FAULTS.items() if s in dialogue["dialogue_id"]), None)
    if fault == "bad":
        return web.json_response({"act": "recommend", "txt": "typo"})
    if fault == "slow":
        await asyncio.sleep(2)
    if fault in ("500", "404"):
        return web.Response(status=int(fault))
    unseen = [i for i in CATALOG if i.item_id not in body["history"]]
    turn = len(dialogue["exchanges"])
    if body["request"] == "final_list":
        rest = unseen[turn : turn + body["k"]]
        return web.json_response({"items": [{"title": i.display_title} for i in rest]})
    item = unseen[turn]
    return web.json_response(
        {
            "act": "recommend",
            "text": f"Try {item.title}.",
            "items": [{"title": item.title, "item_id": item.item_id}],
        }
    )


@pytest.fixture
async def server_url() -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_post("/crs", crs)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    requests.clear()
    yield f"http://user:secret@127.0.0.1:{port}/crs"
    await runner.cleanup()


async def test_a_remote_system_runs_a_campaign_and_faults_cost_one_dialogue(
    tmp_path: Path, server_url: str
) -> None:
    scenario = parse_scenario(
        {
            "name": "http",
            "data": DATA.model_dump(),
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 2, "final_list_k": 3},
            "systems": [{"name": "Remote", "kind": "http", "url": server_url, "timeout_s": 0.5}],
        }
    )
    result = await run_campaign_async(scenario, output_dir=tmp_path / "runs", progress=False)
    with RunStore.open(result.store_path) as store:
        by_sample = {r.sample_id: r for r in store.read_results()}
    bad, slow, failed = (by_sample[s.sample_id] for s in (SAMPLES[0], SAMPLES[1], SAMPLES[3]))
    where = server_url.replace("user:secret@", "***@")
    assert (
        bad.status == "error"
        and bad.error == f"HTTPSystemError: {where}: bad reply: text: Field required"
    )
    assert slow.status == "error" and "no reply within 0.5 s" in str(slow.error)
    assert failed.status == "error" and failed.error == f"HTTPSystemError: {where}: HTTP 404"
    assert "secret" not in f"{bad.error}{slow.error}{failed.error}"
    # The 500: the server's fault, not the system's: unfinished, not stored.
    assert SAMPLES[2].sample_id not in by_sample
    assert (result.status, result.unfinished, result.stored) == ("incomplete", 1, 5)
    for sample in SAMPLES[4:]:
        r = by_sample[sample.sample_id]
        unseen = [i for i in CATALOG if i.item_id not in sample.history]
        assert r.status in ("success", "failure")
        assert r.exchanges[0].system.text == f"Try {unseen[0].title}."
        assert r.exchanges[0].system.items[0].item_id == unseen[0].item_id
        if r.status == "failure":  # titles without ids: grounded by the loop
            assert [i.item_id for i in r.final_list] == [i.item_id for i in unseen[2:5]]
    first = next(b for b in requests if b["request"] == "respond")
    assert first["system"] == "Remote" and first["dialogue"]["exchanges"] == []
    assert "target_id" not in str(first)
    resolved = (result.run_dir / "scenario.resolved.toml").read_text()
    assert "secret" not in resolved and "timeout_s = 0.5" in resolved
