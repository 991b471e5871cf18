"""The SQLite file behind the cache: batched writes, reads before a commit, sharing."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest
from autogen_core.models import CreateResult, RequestUsage

from macrs_sim.llm.cache_store import BATCH_SIZE, ResponseCache, when_unlocked


def reply(text: str) -> CreateResult:
    usage = RequestUsage(prompt_tokens=1, completion_tokens=1)
    return CreateResult(finish_reason="stop", content=text, usage=usage, cached=False)


def committed(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])


def test_a_reply_is_answered_before_and_after_its_commit(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    assert cache.get("k") is None  # opens (and creates) the file
    cache.put("k", reply("hello"))
    assert committed(cache.path) == 0  # still in the open batch
    before = cache.get("k")
    cache.flush()
    after = cache.get("k")
    cache.close()
    assert before == after and after is not None
    assert after.cached and after.content == "hello" and committed(cache.path) == 1


def test_a_full_batch_is_committed_without_a_flush(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    assert cache.get("missing") is None  # makes the file and its table
    for i in range(BATCH_SIZE):
        cache.put(f"k{i}", reply(str(i)))
    deadline = time.monotonic() + 10
    while committed(cache.path) < BATCH_SIZE and time.monotonic() < deadline:
        time.sleep(0.01)  # written in the background
    assert committed(cache.path) == BATCH_SIZE
    cache.close()


def test_the_first_reply_stored_for_a_key_wins(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.put("k", reply("first"))
    cache.put("k", reply("second"))
    cache.close()
    again = ResponseCache(cache.path)
    hit = again.get("k")
    again.close()
    assert hit is not None and hit.content == "first"


def test_several_writers_share_one_file(tmp_path: Path) -> None:
    # As Ray actors do: each has its own connections to the same file.
    path = tmp_path / "shared.sqlite"
    caches = [ResponseCache(path) for _ in range(4)]

    def write(n: int) -> None:
        for i in range(300):
            caches[n].put(f"{n}-{i}", reply(f"{n}-{i}"))
        caches[n].flush()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seen = caches[0].get("3-299")
    for c in caches:
        c.close()
    assert committed(path) == 1200 and seen is not None and seen.content == "3-299"


def test_a_closed_cache_ignores_puts(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.close()
    cache.put("k", reply("late"))  # a straggler after the campaign closed: not an error
    cache.close()


def test_a_locked_database_is_tried_again_and_other_errors_are_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(time, "sleep", lambda s: pauses.append(s))
    pauses: list[float] = []
    errors = [sqlite3.OperationalError("database is locked")] * 2

    def flaky() -> str:
        if errors:
            raise errors.pop()
        return "done"

    assert when_unlocked(flaky) == "done" and pauses == [0.05, 0.1]
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        when_unlocked(lambda: (_ for _ in ()).throw(sqlite3.OperationalError("no such table")))
    assert pauses == [0.05, 0.1]  # not retried
    always = sqlite3.OperationalError("database is locked")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        when_unlocked(lambda: (_ for _ in ()).throw(always), attempts=3)
    assert pauses == [0.05, 0.1, 0.05, 0.1]  # gave up after the third attempt
