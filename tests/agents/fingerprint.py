"""A fixed scripted campaign and a fingerprint of every dialogue it stores.

The fixture `fixtures/scripted_fingerprint.json` was written by this module on the code
before systems moved onto the registry (`python -m tests.agents.fingerprint OUT`); the
registry-built systems must reproduce it exactly.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.protocol import DialogueResult, ItemRef
from macrs_sim.store import RunStore

FIXTURE = Path(__file__).parent / "fixtures" / "scripted_fingerprint.json"


def fixed_scenario(catalog_path: Path) -> Scenario:
    return parse_scenario(
        {
            "name": "fingerprint",
            "model": {"backend": "scripted"},
            "data": {
                "catalog": str(catalog_path),
                "history_len": 3,
                "min_history": 1,
                "n_samples": 8,
            },
            "protocol": {"max_turns": 4, "final_list_k": 5},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "noSR", "kind": "macrs", "strategy_reflection": False},
                {"name": "noIR", "kind": "macrs", "information_reflection": False},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


def _item(ref: ItemRef) -> list[Any]:
    return [ref.title, ref.item_id, ref.method]


def fingerprint(result: DialogueResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "success_turn": result.success_turn,
        "opening": result.opening.text,
        "turns": [
            {
                "act": ex.system.act,
                "text": ex.system.text,
                "items": [_item(i) for i in ex.system.items],
                "explain": ex.system.explain,
                "user": ex.user.text,
                "accepted": ex.user.accepted,
            }
            for ex in result.exchanges
        ],
        "final_list": [_item(i) for i in result.final_list],
        "error": result.error,
    }


async def campaign_fingerprints(tmp: Path) -> dict[str, Any]:
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import demo_dataset

    catalog = demo_dataset(DataConfig()).catalog
    path = tmp / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    result = await run_campaign_async(fixed_scenario(path), output_dir=tmp / "runs", progress=False)
    with RunStore.open(result.store_path) as store:
        results = store.read_results()
    return {r.dialogue_id: fingerprint(r) for r in sorted(results, key=lambda r: r.dialogue_id)}


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        data = asyncio.run(campaign_fingerprints(Path(tmp)))
    Path(sys.argv[1]).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
