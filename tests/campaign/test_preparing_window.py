"""Preparing a run's users a chunk at a time without draining the model server at each
chunk's end: the next chunk starts while one finishes; chunks are stored in order."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.sampling import Prepared
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.campaign.users import SAMPLES_PARTIAL, _Preparing
from macrs_sim.protocol import Sample
from macrs_sim.store import RunStore
from tests.campaign.test_stored_samples import scenario, user


def _preparing(tmp_path: Path, events: list[tuple[str, str]], slow: str) -> _Preparing:
    async def prepare(todo: list[Sample]) -> list[Prepared]:
        async def one(s: Sample) -> Prepared:
            events.append(("start", s.sample_id))
            await asyncio.sleep(0.05 if s.sample_id == slow else 0)
            events.append(("end", s.sample_id))
            return s.model_copy(update={"opening": f"Hi from {s.sample_id}."})

        return list(await asyncio.gather(*(one(s) for s in todo)))

    bar = CampaignProgress(enabled=False)
    store = RunStore.create(tmp_path / "store.sqlite")
    setup = CampaignSetup.from_scenario(scenario(5))
    return _Preparing(setup, store, bar, bar.add("x", 5), lambda: False, lambda: [], prepare)


async def test_the_next_chunk_starts_while_one_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[tuple[str, str]] = []
    preparing = _preparing(tmp_path, events, slow="s0")
    written: list[list[str]] = []
    real = preparing.store.write_prepared

    def recording(ready: list[Sample], *rest: Any) -> None:
        written.append([s.sample_id for s in ready])
        real(ready, *rest)

    monkeypatch.setattr(preparing.store, "write_prepared", recording)
    samples = [user(i, opening="") for i in range(5)]
    await preparing.new(iter([samples[:2], samples[2:4], samples[4:]]), prepared=False)
    # Chunk 2 started before chunk 1's slow sample ended; chunk 3 waited for chunk 1's store.
    assert events.index(("start", "s2")) < events.index(("end", "s0"))
    assert events.index(("end", "s0")) < events.index(("start", "s4"))
    assert written == [["s0", "s1"], ["s2", "s3"], ["s4"]]
    stored = preparing.store.read_samples()
    assert [(s.sample_id, s.opening) for s in stored] == [
        (f"s{i}", f"Hi from s{i}.") for i in range(5)
    ]
    assert preparing.store.get_meta(SAMPLES_PARTIAL) is None


async def test_a_failed_store_leaves_nothing_preparing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[tuple[str, str]] = []
    preparing = _preparing(tmp_path, events, slow="s2")

    def broken(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(preparing.store, "write_prepared", broken)
    samples = [user(i, opening="") for i in range(5)]
    with pytest.raises(OSError, match="disk full"):
        await preparing.new(iter([samples[:2], samples[2:4], samples[4:]]), prepared=False)
    await asyncio.sleep(0.1)  # had chunk 2 been left running, s2 would end by now
    assert ("start", "s2") in events and ("end", "s2") not in events
    assert preparing.store.read_samples() == []
