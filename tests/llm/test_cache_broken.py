"""An unusable cache file costs one warning; the campaign then runs without a cache."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from autogen_core.models import CreateResult, RequestUsage

from macrs_sim.llm.cache_store import BATCH_SIZE, ResponseCache


def reply(text: str) -> CreateResult:
    usage = RequestUsage(prompt_tokens=1, completion_tokens=1)
    return CreateResult(finish_reason="stop", content=text, usage=usage, cached=False)


def exercise(cache: ResponseCache) -> list[CreateResult | None]:
    """Many lookups and more than two batches of writes, as a campaign would make."""
    hits = []
    for i in range(3 * BATCH_SIZE):
        hits.append(cache.get(f"k{i}"))
        cache.put(f"k{i}", reply(str(i)))
    cache.flush()
    hits.append(cache.get("k0"))
    cache.close()
    return hits


def warnings_of(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_file_that_is_not_a_database(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "llm_cache.sqlite"
    path.write_bytes(b"garbage, not SQLite " * 500)
    before = path.read_bytes()
    cache = ResponseCache(path)
    assert exercise(cache) == [None] * (3 * BATCH_SIZE + 1)
    assert warnings_of(caplog) == [
        f"response cache {path} unusable (file is not a database): running without the cache"
    ]
    assert cache.broken == "file is not a database"
    assert path.read_bytes() == before  # left as found, for whoever wants to look at it


def test_damaged_pages(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "llm_cache.sqlite"
    good = ResponseCache(path)
    for i in range(500):
        good.put(f"old{i}", reply("x" * 300))
    good.close()
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    pages = len(data) // page
    for n in range(pages // 3, 2 * pages // 3):
        data[n * page : (n + 1) * page] = bytes((n + i) % 251 for i in range(page))
    path.write_bytes(bytes(data))
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    cache = ResponseCache(path)
    results = [cache.get(f"old{i}") for i in range(500)]
    for i in range(3 * BATCH_SIZE):
        cache.put(f"new{i}", reply("y"))
    cache.close()
    assert len(warnings_of(caplog)) == 1
    assert "unusable (" in warnings_of(caplog)[0]
    assert results[-1] is None  # after the first failure, no more lookups


def test_a_folder_that_cannot_be_made(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "afile").write_text("x")
    cache = ResponseCache(tmp_path / "afile" / "llm_cache.sqlite")
    assert exercise(cache)[-1] is None
    (line,) = warnings_of(caplog)
    assert line == (
        f"response cache {tmp_path / 'afile' / 'llm_cache.sqlite'} unusable ([Errno 17] File"
        f" exists: '{tmp_path / 'afile'}'): running without the cache"
    )
    assert (tmp_path / "afile").read_text() == "x"
