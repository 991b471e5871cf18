"""The backend matrix's in-process real-model rows, run once a test session and shared: the
matrix test of a system (tests/campaign/test_backend_matrix.py) and the dedicated test that
checks more of the same run (tests/test_embedded_dialogue.py for MACRS with the LLM user,
tests/agents/interecagent/test_embedded.py for plan-first with its critic,
tests/agents/recmind/test_embedded.py for CoT) read the same stored campaign, whichever runs
first. Each row costs 20-90 s of CPU llama.cpp, so running it once for both halves the
real-model tests' time; under xdist every in-process real-model test runs on one worker
(conftest.py), which holds the cache.
"""

from __future__ import annotations

import pytest

from tests.campaign.matrix_scenarios import SYSTEMS, MatrixSystem, Stored, run_row
from tests.campaign.matrix_scenarios import scenario as matrix_scenario
from tests.cores import worker_cores

# Bounds each call of the real-model rows. No call of theirs needs it (the longest reply is
# ~200 tokens): at 128, InteRecAgent's plans and RecMind-ToT's samples were cut short and
# asked again twice, ~1,500 prompt tokens each time (~40 s on 2 cores).
REAL_MAX_TOKENS = 256
EMBEDDED_MODEL_NAME = "qwen2.5-coder-0.5b-instruct-q4"

_ROWS: dict[str, Stored | BaseException] = {}


def system_by_id(system_id: str) -> MatrixSystem:
    (system,) = [s for s in SYSTEMS if s.id == system_id]
    return system


async def embedded_row(system: MatrixSystem, tmp_path_factory: pytest.TempPathFactory) -> Stored:
    """One dialogue of one turn of `system` on the embedded model, with the row's user and
    bounded options (and its report where a test reads it); run on first use. A row that
    failed fails its second reader at once, with the first failure as the cause."""
    if system.id not in _ROWS:
        sc = matrix_scenario(
            f"matrix-embedded-{system.id}",
            {"backend": "embedded", "max_tokens": REAL_MAX_TOKENS, "n_threads": worker_cores()},
            [system.options(small=True, embedded=True)],
            simulator=system.embedded_user, n_samples=1, max_turns=1, final_list_k=3,
            concurrency=1,
        )  # fmt: skip
        # The rows' trained rankers in one cache of their own (each trained once), not the
        # user's ~/.cache.
        cache = tmp_path_factory.getbasetemp() / "embedded-rows-cache"
        out = tmp_path_factory.mktemp(f"embedded-{system.id}")
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv("XDG_CACHE_HOME", str(cache))
            try:
                _ROWS[system.id] = await run_row(sc, out, report=system.embedded_report)
            except BaseException as err:
                _ROWS[system.id] = err
                raise
    row = _ROWS[system.id]
    if isinstance(row, BaseException):
        raise AssertionError(f"the in-process {system.id} row failed earlier: {row!r}") from row
    return row
