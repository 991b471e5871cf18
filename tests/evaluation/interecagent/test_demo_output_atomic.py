"""`eval interecagent demos` writes its files whole or not at all (a failed write leaves the
demonstration file a system loads as it was), and refuses a --count past its bound."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from macrs_sim.agents.interecagent.demos import (
    Demonstration,
    load_demonstrations,
    load_seed_demonstrations,
)
from macrs_sim.cli import main
from macrs_sim.evaluation.interecagent.demo_output import write_demo_file


def _written(tmp_path: Path) -> tuple[Path, list[Demonstration]]:
    out = tmp_path / "demos.json"
    seeds = load_seed_demonstrations()
    assert write_demo_file(out, seeds, []) == [out, tmp_path / "demos.candidates.jsonl"]
    return out, seeds


def test_a_write_that_fails_midway_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, seeds = _written(tmp_path)
    before = out.read_bytes()
    real_write_text = Path.write_text

    def disk_full(self: Path, data: str, *args: object, **kwargs: object) -> int:
        real_write_text(self, data[: len(data) // 2], encoding="utf-8")  # half, then full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", disk_full)
    with pytest.raises(OSError, match="No space left"):
        write_demo_file(out, seeds[:3], [])
    monkeypatch.undo()
    assert out.read_bytes() == before
    assert load_demonstrations(out) == seeds  # all 20, not 3 nor half a file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demos.candidates.jsonl", "demos.json"]


def test_text_that_cannot_be_encoded_leaves_the_old_file(tmp_path: Path) -> None:
    out, seeds = _written(tmp_path)
    bad = Demonstration(intent="caf\udce9", plan=seeds[0].plan)  # a lone surrogate
    with pytest.raises(UnicodeEncodeError):
        write_demo_file(out, [*seeds, bad], [])
    assert load_demonstrations(out) == seeds
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demos.candidates.jsonl", "demos.json"]


def test_count_past_ten_thousand_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    count = "10001"  # before: 10,001 requests per strategy and plan shape were written
    out = tmp_path / "x.json"
    argv = ["eval", "interecagent", "demos", "--backend", "scripted", "--out", str(out),
            "--count", count, "--no-progress"]  # fmt: skip
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"error: --count {count}: expected a positive number of requests, at most 10000"
    ]
    assert not out.exists()
