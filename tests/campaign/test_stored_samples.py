"""A campaign holds no list of samples: stored a chunk at a time, read as each dialogue starts."""

from __future__ import annotations

import functools
import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign import runner
from macrs_sim.campaign.executor import DialogueJob, Jobs
from macrs_sim.campaign.local_executor import LocalExecutor
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.sample_source import SampleSource, sample_source
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.campaign.stored_jobs import StoredJobs
from macrs_sim.campaign.users import SAMPLES_PARTIAL, ready_samples
from macrs_sim.config import DataConfig, Scenario, parse_scenario
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.sample_set import SampleSetHeader, write_sample_set
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueResult, Sample, UserTurn
from macrs_sim.store import RunStore


def scenario(n_samples: int = 3, sample_set: Path | None = None) -> Scenario:
    data: dict[str, Any] = {"n_samples": n_samples}
    if sample_set is not None:
        data["sample_set"] = str(sample_set)
    return parse_scenario(
        {
            "name": "chunks",
            "model": {"backend": "scripted"},
            "data": data,
            "protocol": {"max_turns": 2},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


@functools.cache
def demo_items() -> list[str]:
    return [item.item_id for item in open_dataset(DataConfig()).catalog][:6]


def user(i: int, opening: str = "Something funny, please.") -> Sample:
    ids = demo_items()
    return Sample(
        sample_id=f"s{i}",
        user_id=f"u{i}",
        history=tuple(ids[:5]),
        target_id=ids[5],
        opening=opening,
        pre_target=tuple(ids[:5]),
    )


def write_set(path: Path, n_header: int, ids: list[int]) -> Path:
    ds = open_dataset(DataConfig())
    header = SampleSetHeader(
        dataset=ds.name,
        dataset_fingerprint=ds.fingerprint,
        data={},
        simulator={},
        n_samples=n_header,
    )
    write_sample_set(path, header, (user(i) for i in ids))
    return path


def dialogue(system: str, sample_id: str) -> DialogueResult:
    return DialogueResult(
        dialogue_id=f"{system}:{sample_id}", system=system, sample_id=sample_id, target_id="x",
        status="failure", max_turns=2, opening=UserTurn(text="hi"),
    )  # fmt: skip


# --- the jobs --------------------------------------------------------------------------------


def test_jobs_are_system_major_in_stored_order_without_done_or_unprepared_ones(
    tmp_path: Path,
) -> None:
    with RunStore.create(tmp_path / "store.sqlite") as store:
        store.write_samples([user(1), user(2), user(3, opening=""), user(4), user(5)])
        store.write_dialogue(dialogue("A", "s2"), [])
        store.write_dialogue(dialogue("B", "s5"), [])
        jobs = StoredJobs(store, ["A", "B"], page=2)  # pages end inside each system's run
        assert len(jobs) == 6
        assert [j.dialogue_id for j in jobs] == ["A:s1", "A:s4", "A:s5", "B:s1", "B:s2", "B:s4"]
        # A sample stored again (prepared by a later session) keeps its place, as in the file.
        store.write_prepared([user(1)], [])
        assert [j.dialogue_id for j in StoredJobs(store, ["A"], page=2)] == ["A:s1", "A:s4", "A:s5"]
        assert len(StoredJobs(store, [])) == 0 and list(StoredJobs(store, [])) == []


def test_a_job_reads_its_sample_when_it_is_taken(tmp_path: Path) -> None:
    with RunStore.create(tmp_path / "store.sqlite") as store:
        store.write_samples([user(1), user(2)])
        taking = iter(StoredJobs(store, ["A"]))
        assert next(taking).sample.opening == "Something funny, please."
        changed = user(2, opening="Changed after the jobs were made.").model_dump_json()
        store.query("UPDATE samples SET json = ? WHERE sample_id = 's2'", (changed,))
        assert next(taking).sample.opening == "Changed after the jobs were made."
        assert next(taking, None) is None


def _samples_reachable(root: object, depth: int = 4) -> list[Sample]:
    """Samples reachable from `root` in `depth` steps, not through the store (a file)."""
    found: list[Sample] = []
    seen, layer = {id(root)}, [root]
    for _ in range(depth):
        nxt = []
        for obj in gc.get_referents(*layer):
            if id(obj) in seen or isinstance(obj, (RunStore, type)):
                continue
            seen.add(id(obj))
            if isinstance(obj, Sample):
                found.append(obj)
            nxt.append(obj)
        layer = nxt
    return found


async def test_a_campaign_hands_its_executor_jobs_that_hold_no_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    read_sample = RunStore.read_sample

    def counted(self: RunStore, sample_id: str) -> Sample | None:
        reads.append(sample_id)
        return read_sample(self, sample_id)

    monkeypatch.setattr(RunStore, "read_sample", counted)
    seen: dict[str, Any] = {}

    class Watching(LocalExecutor):
        async def run(self, scenario: Scenario, jobs: Jobs, *args: Any, **kw: Any) -> None:
            seen["jobs"], seen["held"] = jobs, _samples_reachable(jobs)
            reads_at_take: list[int] = []

            class Taken:
                def __len__(self) -> int:
                    return len(jobs)

                def __iter__(self) -> Iterator[DialogueJob]:
                    for job in jobs:
                        reads_at_take.append(len(reads))
                        yield job

            seen["reads_at_take"] = reads_at_take
            await super().run(scenario, Taken(), *args, **kw)

    monkeypatch.setattr(runner, "make_executor", lambda setup: Watching(setup))
    result = await run_campaign_async(scenario(), output_dir=tmp_path, progress=False, report=False)
    assert result.status == "finished" and result.stored == 6
    assert isinstance(seen["jobs"], StoredJobs) and seen["held"] == []
    assert seen["reads_at_take"] == [1, 2, 3, 4, 5, 6]  # one read per job, as it is taken
    with RunStore.open(result.store_path) as store:
        order = [s.sample_id for s in store.read_samples()]
    assert reads == [*order, *order]  # system-major, samples in stored order


# --- storing the samples ---------------------------------------------------------------------


async def _store(setup: CampaignSetup, store: RunStore, source: SampleSource) -> int:
    return await ready_samples(
        setup, store, source, bar=CampaignProgress(enabled=False),
        should_stop=lambda: False, take_calls=lambda: [],
    )  # fmt: skip


async def test_a_2500_sample_set_is_stored_in_chunks_and_a_cut_run_stores_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_set(tmp_path / "set.jsonl", 2500, list(range(2500)))
    setup = CampaignSetup.from_scenario(scenario(sample_set=path))
    writes: list[tuple[int, dict[str, str] | None]] = []
    write_prepared = RunStore.write_prepared

    def spied(self: RunStore, samples: Any, calls: Any, dialogues: Any = (), meta: Any = None):  # type: ignore[no-untyped-def]
        writes.append((len(samples), meta))
        write_prepared(self, samples, calls, dialogues, meta)

    monkeypatch.setattr(RunStore, "write_prepared", spied)
    try:
        source = sample_source(setup)
        assert source.count == 2500 and source.prepared
        with RunStore.create(tmp_path / "store.sqlite") as store:
            # Killed after the first chunk: the store says its samples are partial.
            first = next(source.take())
            cut = SampleSource(2500, prepared=True, read=lambda: _then_killed(first))
            with pytest.raises(RuntimeError, match="killed"):
                await _store(setup, store, cut)
            assert store.pages.count_samples() == 1000 and store.get_meta(SAMPLES_PARTIAL) == "1"
            assert await _store(setup, store, sample_source(setup)) == 2500
            ids = [s.sample_id for s in store.read_samples()]
            assert store.get_meta(SAMPLES_PARTIAL) is None
            # A complete store: the next session reads none of the source.
            assert await _store(setup, store, SampleSource(9, prepared=True, read=_never)) == 2500
    finally:
        await setup.close()
    assert ids == [f"s{i}" for i in range(2500)]  # in the file's order, none twice
    partial = {SAMPLES_PARTIAL: "1"}
    assert writes == [(1000, partial), (1000, partial), (500, partial)]


def _then_killed(first: list[Sample]) -> Iterator[list[Sample]]:
    yield first
    raise RuntimeError("killed")


def _never() -> Iterator[list[Sample]]:
    raise AssertionError("a complete store read its source again")
    yield []  # a generator: it raises when read, not when taken


@pytest.mark.parametrize(
    ("n_header", "ids", "message"),
    [
        (2500, list(range(2499)), "header says 2500 samples, the file holds 2499"),
        (2500, [*range(2499), 1234], "repeated sample ids"),
    ],
)
async def test_a_bad_2500_sample_set_writes_nothing(
    tmp_path: Path, n_header: int, ids: list[int], message: str
) -> None:
    path = write_set(tmp_path / "set.jsonl", n_header, ids)
    with pytest.raises(DataError, match=message):
        await run_campaign_async(
            scenario(sample_set=path), output_dir=tmp_path / "runs", progress=False
        )
    assert not (tmp_path / "runs").exists() or list((tmp_path / "runs").iterdir()) == []


async def test_drawn_samples_are_let_go_once_handed_over(tmp_path: Path) -> None:
    setup = CampaignSetup.from_scenario(scenario(n_samples=3))
    try:
        source = sample_source(setup)
        assert (source.count, source.prepared) == (3, False)
        chunks = source.take()
        assert _samples_reachable(source) == []  # the source keeps nothing
        assert [len(c) for c in chunks] == [3]
        assert list(source.take()) == []  # handed over once
    finally:
        await setup.close()


def test_a_dialogue_row_without_an_id_leaves_the_jobs_alone(tmp_path: Path) -> None:
    # SQLite lets a TEXT primary key (format 1) or a UNIQUE column (format 2) hold NULL;
    # `x NOT IN (.., NULL)` is never true, so a query written that way would find no job.
    import sqlite3

    with RunStore.create(tmp_path / "store.sqlite") as store:
        store.write_samples([user(1), user(2)])
        store.write_dialogue(dialogue("A", "s2"), [])
    conn = sqlite3.connect(tmp_path / "store.sqlite")
    with conn:
        conn.execute(
            "INSERT INTO dialogues SELECT NULL, NULL, system, sample_id, target_id, status,"
            " success_turn, turns_taken, max_turns, error, leaks, opening_json,"
            " final_list_json FROM dialogues"
        )
    conn.close()
    with RunStore.open(tmp_path / "store.sqlite") as store:
        jobs = StoredJobs(store, ["A", "B"])
        assert len(jobs) == 3
        assert [j.dialogue_id for j in jobs] == ["A:s1", "B:s1", "B:s2"]


def _old_set(path: Path, opening: str) -> tuple[Path, list[Sample]]:
    """A set as written before pre_target was recorded, of the 5 samples a scenario draws
    (each given `opening`); and those samples as drawn, pre_target included."""
    setup = CampaignSetup.from_scenario(scenario(5))
    drawn = [s.model_copy(update={"opening": opening}) for s in setup.campaign_samples()]
    header = SampleSetHeader(
        dataset=setup.dataset.name, dataset_fingerprint=setup.dataset.fingerprint,
        data={}, simulator={}, n_samples=len(drawn),
    )  # fmt: skip
    write_sample_set(path, header, [s.model_copy(update={"pre_target": None}) for s in drawn])
    return path, drawn


def test_an_old_sample_set_works_out_its_users_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A set written before pre_target was recorded: the dataset's users are worked out
    # once for all chunks, not once a chunk.
    from macrs_sim.campaign import sample_source as module

    calls: list[int] = []
    real = module.user_items
    monkeypatch.setattr(module, "user_items", lambda *a: calls.append(1) or real(*a))
    path, _ = _old_set(tmp_path / "old.jsonl", "Hello.")
    source = sample_source(CampaignSetup.from_scenario(scenario(5, sample_set=path)), size=2)
    chunks = list(source.take())
    assert [len(c) for c in chunks] == [2, 2, 1]
    assert all(s.pre_target is not None for c in chunks for s in c)
    assert calls == [1]


def test_the_campaigns_samples_are_read_from_the_set_on_each_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What `prepare` and the systems' popularity get: the set's samples, pre-target filled
    # in for an old set (its users worked out once), read again each pass, never a list.
    from macrs_sim.campaign import setup as module
    from macrs_sim.data.sample_view import SampleSetView

    path, drawn = _old_set(tmp_path / "old.jsonl", "Hi.")
    calls: list[int] = []
    real = module.user_items  # type: ignore[attr-defined]

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(module, "user_items", counted)
    samples = CampaignSetup.from_scenario(scenario(5, sample_set=path)).campaign_samples()
    assert isinstance(samples, SampleSetView) and len(samples) == 5
    assert list(samples) == drawn and list(samples) == drawn
    assert calls == [1]
