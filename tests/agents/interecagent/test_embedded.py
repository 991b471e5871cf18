"""One InteRecAgent dialogue on the embedded model (llama.cpp, Qwen2.5-Coder-0.5B Q4): slow.

Whatever the small model writes, the dialogue runs: bad plans are repaired or recorded. The
run is the backend matrix's in-process plan-first row, with its critic (one turn;
tests/campaign/embedded_rows.py), run once for both tests.
"""

from __future__ import annotations

import pytest

from tests.campaign.embedded_rows import embedded_row, system_by_id

pytestmark = pytest.mark.embedded


async def test_one_interecagent_dialogue_on_the_embedded_model(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    system = system_by_id("interecagent-plan_first")
    options = system.options(small=True, embedded=True)
    assert options["reflection"] is True and options["reflection_limit"] == 1
    row = await embedded_row(system, tmp_path_factory)
    (result,) = row.results
    assert result.status in ("success", "failure"), result.error
    assert all(ex.system.text.strip() for ex in result.exchanges)
    roles = [c.role for c in row.calls]
    assert roles[:3] == ["interecagent.planner", "interecagent.reply", "interecagent.critic"]
    for ex in result.exchanges:
        attempts = ex.system.explain["attempts"]
        assert 1 <= len(attempts) <= 2  # at most one re-plan (reflection_limit)
        assert all(ref.method == "exact" for ref in ex.system.items)
