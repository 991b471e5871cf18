"""The cores one test process may give llama.cpp: all of them in one process, its share under
xdist. Two workers that each start llama.cpp on every core of a 2-core machine run three or
four busy threads on two cores, and llama.cpp's threads wait for each other at every layer:
measured, its rows ran 1.55x slower beside the other worker's tests than alone."""

from __future__ import annotations

import os


def worker_cores() -> int:
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, (os.cpu_count() or 1) // workers)
