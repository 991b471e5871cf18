"""Freed memory goes back to the system (glibc's malloc; elsewhere nothing is changed).

glibc serves a block of 128 KiB or more with its own mmap, given back when freed, until the
first such block is freed: then it raises that threshold to the freed block's size (up to
32 MiB) and serves later ones from its heap, which it keeps. A report on a million dialogues
makes many numpy temporaries of a few MiB; with the threshold raised they stayed in the
heap and the peak grew with the run (at 100,000 dialogues, about 20 MiB more). Set by the
commands that build reports and sites (report, compare, view, and `run` before its report),
not for training, where a fresh mapping for every large tensor would cost time.
"""

from __future__ import annotations

import ctypes
import ctypes.util

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
THRESHOLD = 128 * 1024  # glibc's own default, now fixed


def give_back_freed_memory() -> bool:
    """Fix glibc's mmap and trim thresholds at 128 KiB; False where there is no glibc."""
    # No C library by name: the program's own symbols (glibc's, where Python links it).
    name = ctypes.util.find_library("c")
    try:
        mallopt = getattr(ctypes.CDLL(name), "mallopt", None)
    except OSError:
        return False
    if mallopt is None:
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, THRESHOLD)
    )
