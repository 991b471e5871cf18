"""One RecMind-CoT turn on the embedded model (llama.cpp, Qwen2.5-Coder-0.5B Q4): slow.

Whatever the small model writes, the turn ends: a reply that breaks its schema is
recorded, the step limit ends the planning, and the fallback list needs no model. The run
is the backend matrix's in-process CoT row (one turn, one tool step;
tests/campaign/embedded_rows.py), run once for both tests.
"""

from __future__ import annotations

import pytest

from tests.campaign.embedded_rows import embedded_row, system_by_id

pytestmark = pytest.mark.embedded


async def test_one_recmind_cot_turn_on_the_embedded_model(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    system = system_by_id("recmind-cot")
    max_steps = system.options(small=True, embedded=True)["max_steps"]
    row = await embedded_row(system, tmp_path_factory)
    (result,) = row.results
    assert result.status in ("success", "failure"), result.error
    (ex,) = result.exchanges
    assert ex.system.text.strip()
    tree = ex.system.explain["tree"]
    assert tree["planner"] == "cot" and tree["steps_used"] <= max_steps == 1
    roles = [c.role for c in row.calls]
    assert roles[0] == "recmind.thought" and all(x.startswith("recmind.") for x in roles)
    assert ex.system.explain["llm_calls"] == len(roles)
