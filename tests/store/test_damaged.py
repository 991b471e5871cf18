"""Opening a run store with damaged pages: one DataError line, and the file left untouched."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample
from macrs_sim.store import RunStore


def store_with_samples(path: Path, n: int = 2000) -> None:
    with RunStore.create(path) as store:
        store.write_samples(
            [
                Sample(sample_id=f"s{i}", user_id=f"u{i}", history=("a",) * 20, target_id="b")
                for i in range(n)
            ]
        )
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_damaged_pages(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    store_with_samples(path)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    pages = len(data) // page
    for n in range(pages // 3, 2 * pages // 3):
        data[n * page : (n + 1) * page] = b"\xff" * page
    path.write_bytes(bytes(data))
    with pytest.raises(DataError) as err:
        RunStore.open(path)
    line = str(err.value)
    assert line.startswith(f"{path}: damaged run store (") and line.endswith("); it cannot be read")
    assert "\n" not in line
    assert path.read_bytes() == bytes(data)  # nothing written to it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store.sqlite"]


def test_a_sound_store_still_opens(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    store_with_samples(path, n=3)
    with RunStore.open(path) as store:
        assert [s.sample_id for s in store.read_samples()] == ["s0", "s1", "s2"]
