"""run_campaign (the synchronous entry point) inside a running event loop, as in Jupyter."""

from __future__ import annotations

import asyncio
from pathlib import Path

from macrs_sim.campaign.runner import run_campaign
from macrs_sim.config import parse_scenario
from macrs_sim.data.catalog import Catalog


def _scenario(tmp_path: Path, catalog: Catalog):  # type: ignore[no-untyped-def]
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    return parse_scenario(
        {
            "name": "in-loop",
            "model": {"backend": "scripted"},
            "data": {"catalog": str(path), "history_len": 3, "min_history": 1, "n_samples": 2},
            "protocol": {"max_turns": 3, "final_list_k": 5},
            "systems": [{"name": "single", "kind": "single_llm"}],
        }
    )


async def test_run_campaign_works_inside_a_running_loop(tmp_path: Path, catalog: Catalog) -> None:
    loop = asyncio.get_running_loop()  # the situation of a notebook cell
    result = run_campaign(
        _scenario(tmp_path, catalog), output_dir=tmp_path / "runs", progress=False
    )
    assert asyncio.get_running_loop() is loop and not loop.is_closed()
    # 2 samples x 1 system, all stored, report written
    assert (result.expected, result.stored, result.unfinished) == (2, 2, 0)
    assert result.report_path.is_file()


def test_run_campaign_without_a_loop(tmp_path: Path, catalog: Catalog) -> None:
    result = run_campaign(
        _scenario(tmp_path, catalog), output_dir=tmp_path / "runs", progress=False
    )
    assert (result.expected, result.stored) == (2, 2)
