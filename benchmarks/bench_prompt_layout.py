"""Echo and refusal shares of the quickstart campaign on the embedded model, with the
paper's prompt layout and with the chat layout; prints JSON.

Each layout runs the quickstart scenario (MACRS and single-LLM, embedded 0.5B model, LLM
user) on the same samples, then its report; the shares are validity.csv's, per system.

    nice -n 10 python benchmarks/bench_prompt_layout.py [--samples 4] [--turns 3]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import tempfile
import time
from pathlib import Path

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import load_scenario

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "quickstart_llm_user.toml"
COLUMNS = (
    "user_echo_share", "system_echo_share", "user_refusal_share", "system_refusal_share",
    "user_repeat_share", "system_repeat_share", "user_instruction_echo_share",
    "user_profile_dump_share",
)  # fmt: skip


def shares(report_dir: Path) -> dict[str, dict[str, str]]:
    with (report_dir / "validity.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return {r["system"]: {c: r.get(c, "") for c in COLUMNS} for r in rows}


async def one_layout(layout: str, samples: int, turns: int, out: Path) -> dict[str, object]:
    base = load_scenario(SCENARIO)
    sc = base.model_copy(
        update={
            "name": f"layout-{layout}",
            "prompt_layout": layout,
            "data": base.data.model_copy(update={"n_samples": samples}),
            "protocol": base.protocol.model_copy(update={"max_turns": turns}),
            # One cache for both layouts: the samples' target profiles and openings are the
            # same requests, asked once; every layout-dependent request differs.
            "cache": base.cache.model_copy(update={"path": str(out / "llm_cache.sqlite")}),
        }
    )
    start = time.perf_counter()
    result = await run_campaign_async(sc, output_dir=out, progress=False, report=True)
    seconds = time.perf_counter() - start
    return {"seconds": round(seconds, 1), "by_system": shares(result.store_path.parent),
            "run_dir": str(result.store_path.parent)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--layouts", default="paper,chat")
    parser.add_argument("--out", default=None, help="keep the runs here (default: a temp dir)")
    args = parser.parse_args()
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="bench-layout-"))
    got = {
        layout: asyncio.run(one_layout(layout, args.samples, args.turns, out))
        for layout in args.layouts.split(",")
    }
    print(json.dumps({"samples": args.samples, "turns": args.turns, "layouts": got}, indent=2))


if __name__ == "__main__":
    main()
