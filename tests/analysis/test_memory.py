"""`give_back_freed_memory` (cli/memory.py): glibc's mmap and trim thresholds fixed at
128 KiB through mallopt; False, never an exception, where there is no such mallopt."""

from __future__ import annotations

import ctypes
import ctypes.util
import platform

import pytest

from macrs_sim.analysis.memory import THRESHOLD, give_back_freed_memory

GLIBC = platform.libc_ver()[0] == "glibc"


@pytest.mark.skipif(not GLIBC, reason="glibc's mallopt only")
def test_true_with_glibc() -> None:
    assert THRESHOLD == 131072
    assert give_back_freed_memory() is True
    # The main program's symbols hold it too (see the last test: not used as a fallback).
    assert hasattr(ctypes.CDLL(None), "mallopt")


class _Lib:
    """A loaded C library whose mallopt records its calls and answers `answer`."""

    def __init__(self, answer: int) -> None:
        self.calls: list[tuple[int, int]] = []
        self.answer = answer

    def mallopt(self, param: int, value: int) -> int:
        self.calls.append((param, value))
        return self.answer


def _load(monkeypatch: pytest.MonkeyPatch, lib: object) -> list[str | None]:
    names: list[str | None] = []

    def cdll(name: str | None) -> object:
        names.append(name)
        return lib

    monkeypatch.setattr(ctypes.util, "find_library", lambda name: f"lib{name}.so.6")
    monkeypatch.setattr(ctypes, "CDLL", cdll)
    return names


def test_sets_mmap_then_trim_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    lib = _Lib(answer=1)
    names = _load(monkeypatch, lib)
    assert give_back_freed_memory() is True
    assert names == ["libc.so.6"]
    # M_MMAP_THRESHOLD is -3 and M_TRIM_THRESHOLD -1 in glibc's malloc.h.
    assert lib.calls == [(-3, 131072), (-1, 131072)]


def test_a_refused_threshold_is_false(monkeypatch: pytest.MonkeyPatch) -> None:
    lib = _Lib(answer=0)  # mallopt's 0: the value was not taken
    _load(monkeypatch, lib)
    assert give_back_freed_memory() is False
    assert lib.calls == [(-3, 131072)]  # the trim threshold is not tried after


def test_a_library_without_mallopt_is_false(monkeypatch: pytest.MonkeyPatch) -> None:
    names = _load(monkeypatch, object())
    assert give_back_freed_memory() is False
    assert names == ["libc.so.6"]


def test_a_library_that_does_not_load_is_false(monkeypatch: pytest.MonkeyPatch) -> None:
    def cdll(name: str | None) -> object:
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(ctypes, "CDLL", cdll)
    assert give_back_freed_memory() is False


def test_no_c_library_found_uses_the_programs_own_symbols(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No C library by name: the main program (ctypes.CDLL(None)) is asked, whose symbols
    # include glibc's mallopt where Python links glibc.
    lib = _Lib(answer=1)
    names = _load(monkeypatch, lib)
    monkeypatch.setattr(ctypes.util, "find_library", lambda name: None)
    assert give_back_freed_memory() is True
    assert names == [None] and lib.calls == [(-3, 131072), (-1, 131072)]
