"""`macrs-sim view` on 10,000 dialogues: site build time and, with Chromium, page load; prints JSON.

A synthetic run store (5 systems x 2,000 samples of the demo catalog, 1-5 turns each with
MACRS-style internals and 5 LLM calls a turn) is written first, untimed. Timed: loading the
run (`load_run`) plus building the site (`build_site`), as the command does, in wall and
CPU seconds (the two differ on a shared machine). With Chromium
and selenium (tests/viewer/test_browser.py says how to install them), the page is opened
from disk LOADS times: `load_ms` is navigation start to the first page of the list drawn;
then one filter over all rows (`filter_ms`) and opening a dialogue from its chunk.

    python benchmarks/bench_viewer.py [--dialogues 10000] [--no-browser]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from macrs_sim.analysis.runs.load import load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample
from macrs_sim.store import RunStore
from macrs_sim.viewer.site import build_site

SYSTEMS = ["MACRS", "single-LLM", "MACRS w/o IR", "MACRS w/o SR", "MACRS w/o SR+IR"]
ACTS = ["ask", "chat", "recommend"]
BUCKETS = ["top 10%", "10-20%", "20-30%", "30-50%", "bottom 50%"]
LOADS = 3


def _explain(rng: random.Random, titles: list[str], act: str) -> dict[str, Any]:
    cands = {a: {"text": f"A {a} reply, {rng.random():.6f}.", "item_title": None} for a in ACTS}
    cands["recommend"]["item_title"] = rng.choice(titles)
    return {
        "candidates": cands,
        "planner": {"step1": "Reviewed.", "step2": "Weighed.", "step3": "Chose.", "choice": act},
        "profile": {"current_demand": [{"attribute": "genre", "value": "drama"}]},
        "suggestions": {"ask": "Ask about the era."},
        "experiences": ["Ask before recommending again."],
    }


def _dialogue(
    rng: random.Random, system: str, sample: Sample, items: list[tuple[str, str]]
) -> dict[str, Any]:
    n = rng.randint(1, 5)
    success = rng.random() < 0.5 and n < 5
    exchanges = []
    for turn in range(1, n + 1):
        act = "recommend" if turn == n and success else rng.choice(ACTS)
        iid, title = (sample.target_id, "target") if turn == n and success else rng.choice(items)
        refs = (
            [{"title": title, "item_id": iid, "score": 1.0, "method": "exact"}]
            if act == "recommend"
            else []
        )
        explain = _explain(rng, [t for _, t in items[:50]], act) if system != "single-LLM" else {}
        text = f"Turn {turn}: {rng.random():.9f} " * 4
        exchanges.append(
            {
                "turn": turn,
                "system": {"act": act, "text": text, "items": refs, "explain": explain},
                "user": {"text": f"A reply {rng.random():.9f}.", "accepted": success and turn == n},
            }
        )
    final = (
        []
        if success
        else [
            {"title": t, "item_id": i, "score": 1.0, "method": "exact"}
            for i, t in rng.sample(items, 10)
        ]
    )
    return {
        "dialogue_id": f"{system}:{sample.sample_id}",
        "system": system,
        "sample_id": sample.sample_id,
        "target_id": sample.target_id,
        "status": "success" if success else rng.choice(["failure"] * 9 + ["error"]),
        "max_turns": 5,
        "success_turn": n if success else None,
        "opening": {"text": sample.opening},
        "exchanges": exchanges,
        "final_list": final,
    }


def write_store(run_dir: Path, n_dialogues: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    catalog = Catalog.demo()
    items = [(i.item_id, i.display_title) for i in catalog]
    n_samples = n_dialogues // len(SYSTEMS)
    samples = [
        Sample(
            sample_id=f"s-{k:05d}",
            user_id=f"u{k}",
            history=tuple(i for i, _ in rng.sample(items, 20)),
            target_id=rng.choice(items)[0],
            opening="I'd like a film tonight.",
            bucket=rng.choice(BUCKETS),
        )
        for k in range(n_samples)
    ]
    run_dir.mkdir(parents=True)
    (run_dir / "scenario.resolved.toml").write_text(
        'name = "bench-viewer"\n[data]\ndataset = "demo"\n'
        "popularity_buckets = [0.1, 0.2, 0.3, 0.5, 1.0]\n"
        + "".join(f'[[systems]]\nname = "{s}"\nkind = "macrs"\n' for s in SYSTEMS)
    )
    with RunStore.create(run_dir / "store.sqlite") as store:
        store.set_meta("scenario_name", "bench-viewer")
        store.set_meta("systems", json.dumps(SYSTEMS))
        store.set_meta("status", "finished")
        store.write_samples(samples)
        for sample in samples:
            for system in SYSTEMS:
                result = DialogueResult.model_validate(_dialogue(rng, system, sample, items))
                calls = [
                    LLMCallRecord(
                        dialogue_id=result.dialogue_id,
                        system=system,
                        role=f"macrs.{role}",
                        turn=ex.turn,
                        model="bench",
                        prompt_tokens=900,
                        completion_tokens=60,
                        latency_s=0.8,
                    )
                    for ex in result.exchanges
                    for role in ("info_reflector", *ACTS, "planner")
                ]
                store.write_dialogue(result, calls)


def _browser_times(index_html: Path) -> dict[str, Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1300,950"):
        options.add_argument(flag)
    driver = webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
    )
    ready = "return window.MV && MV.readyAt ? MV.readyAt : null"
    try:
        loads = []
        for _ in range(LOADS):
            driver.get("about:blank")
            driver.get(index_html.as_uri())
            loads.append(WebDriverWait(driver, 120).until(lambda d: d.execute_script(ready)))
        filter_ms = driver.execute_script(
            "var t = performance.now();"
            " MV.showList(new URLSearchParams('system=MACRS&status=failure'));"
            " return performance.now() - t;"
        )
        started = time.perf_counter()
        driver.execute_script(
            "location.hash = '#/d/0/' + encodeURIComponent(MV.rows[MV.rows.length - 7].dialogue_id)"
        )
        WebDriverWait(driver, 60).until(
            lambda d: d.find_elements("css selector", "article.dialogue")
        )
        open_ms = (time.perf_counter() - started) * 1000
    finally:
        driver.quit()
    return {
        "load_ms_median": round(statistics.median(loads)),
        "load_ms_max": round(max(loads)),
        "filter_all_rows_ms": round(filter_ms, 1),
        "open_dialogue_ms": round(open_ms),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dialogues", type=int, default=10_000)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(tmp) / "run"
        started = time.perf_counter()
        write_store(run_dir, args.dialogues)
        setup_s = time.perf_counter() - started
        started, cpu_started = time.perf_counter(), time.process_time()
        run = load_run(run_dir)
        load_s = time.perf_counter() - started
        site = build_site([run], Path(tmp) / "site", lambda r: Catalog.demo())
        total_s = time.perf_counter() - started
        cpu_s = time.process_time() - cpu_started
        out: dict[str, Any] = {
            "dialogues": site.dialogues,
            "store_write_s_untimed": round(setup_s, 1),
            "load_run_s": round(load_s, 2),
            "build_site_s": round(site.build_s, 2),
            "view_total_s": round(total_s, 2),
            # CPU seconds of the same: the wall time on an otherwise idle core.
            "view_total_cpu_s": round(cpu_s, 2),
            "chunks": site.chunks,
            "index_js_mb": round((site.path / "data" / "index.js").stat().st_size / 1e6, 2),
            "site_mb": round(
                sum(p.stat().st_size for p in site.path.rglob("*") if p.is_file()) / 1e6, 1
            ),
        }
        browser = shutil.which("chromium") and shutil.which("chromedriver")
        if browser and not args.no_browser:
            out |= _browser_times(site.index_html)
        else:
            out["browser"] = "skipped (needs chromium, chromium-driver and selenium)"
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
