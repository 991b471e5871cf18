"""`macrs-sim run`, `report` and `view` at 5,000-100,000 dialogues, as child processes; JSON.

A real scripted MACRS campaign of --base dialogues (agenda users, no latency, demo data) is
run first through the CLI. Each larger store is a grown copy of that real run: its samples,
dialogues, turns, model and tool calls are copied with SQL under new ids (`~g1`, `~g2`, ...
appended to sample and dialogue ids) until it holds N dialogues, and its `expected_dialogues`
says N. For each N: `macrs-sim report RUN` and `macrs-sim view RUN --out SITE` are run on it,
and `macrs-sim run SCENARIO` (a real campaign of N dialogues) where N <= --run-max; above it
the campaign's figures are extrapolated linearly from the measured ones (`extrapolated`).
A command's wall, user+sys CPU and peak RSS are the child's own (os.wait4's rusage), under
an optional address-space cap (--cap-gib); a command that dies is a result (its exit code).
Also: the store's bytes (per dialogue, per table from `dbstat`) and the site's bytes.
The campaign's figures include the report `run` writes at its end; the campaign CPU the
report is held to is `run` less the standalone report on a store of the same size.

    python benchmarks/bench_scale.py [--sizes 5000,20000,100000] [--base 1000] [--run-max 20000]
        [--cap-gib G] [--workdir DIR] [--keep]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from macrs_sim.config import Scenario, parse_scenario, scenario_to_toml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benchmarks beside this one
from bench_scripted_campaign import repeated_users  # noqa: E402

GIB = 2**30
STORE = "store.sqlite"


def scenario(n: int, concurrency: int, sample_set: Path | None = None) -> Scenario:
    data: dict[str, Any] = {"n_samples": n}
    if sample_set is not None:
        data["sample_set"] = str(sample_set)
    return parse_scenario(
        {
            "name": "bench-scale",
            "model": {"backend": "scripted", "latency_s": 0.0},
            "data": data,
            "simulator": {"kind": "agenda"},
            "campaign": {"concurrency": concurrency},
            "cache": {"enabled": False},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )


async def _users(n: int, out: Path) -> None:
    await repeated_users(lambda k: scenario(k, 64), n, out)


# The picked dialogues of the base (temp.base, ranked by id) and each one's copy.
_PICKED = "o.dialogue_id IN (SELECT dialogue_id FROM temp.base WHERE rank <= :m)"
_COPIES = f"JOIN dialogues n ON n.dialogue_id = o.dialogue_id || :sfx WHERE {_PICKED}"


def _copy_sql(conn: sqlite3.Connection, table: str) -> str | None:
    """INSERT ... SELECT copying `table`'s rows of the picked dialogues (or samples) under
    suffixed ids; None for a table with neither. A turn or call row (format 2: its
    `dialogue` a key) goes to the copy of its dialogue. Integer keys are left to SQLite."""
    cols = list(conn.execute(f"PRAGMA table_info({table})"))
    alias = [c[1] for c in cols if c[5] == 1 and c[2].upper() == "INTEGER"]
    alias = alias if sum(c[5] > 0 for c in cols) == 1 else []  # a rowid alias: SQLite's
    keep = [c[1] for c in cols if c[1] not in alias]
    if "dialogue" in keep:
        select = ", ".join("n.id" if c == "dialogue" else f"r.{c}" for c in keep)
        return (
            f"INSERT INTO {table} ({', '.join(keep)}) SELECT {select} FROM {table} r "
            f"JOIN dialogues o ON o.id = r.dialogue {_COPIES} ORDER BY r.rowid"
        )
    key = next((k for k in ("dialogue_id", "sample_id") if k in keep), None)
    if key is None:
        return None
    exprs = {"dialogue_id": "dialogue_id || :sfx", "sample_id": "sample_id || :sfx"}
    if key == "sample_id" and "json" in keep:  # a sample's json holds its id too
        exprs["json"] = "json_set(json, '$.sample_id', sample_id || :sfx)"
    select = ", ".join(exprs.get(c, c) for c in keep)
    return (
        f"INSERT INTO {table} ({', '.join(keep)}) SELECT {select} FROM {table} "
        f"WHERE {key} IN (SELECT {key} FROM temp.base WHERE rank <= :m) ORDER BY rowid"
    )


def grow(base_run: Path, dest: Path, n: int) -> Path:
    """A run directory of `n` dialogues: the base run's store with copies of its dialogues
    (and their samples, turns, calls) under ids suffixed `~g1`, `~g2`, ...; the last copy
    takes the first dialogues by id. Its scenario file is the base run's."""
    dest.mkdir(parents=True)
    shutil.copy2(base_run / "scenario.resolved.toml", dest)
    src, conn = sqlite3.connect(base_run / STORE), sqlite3.connect(dest / STORE)
    src.backup(conn)
    src.close()
    conn.execute(
        "CREATE TEMP TABLE base AS SELECT row_number() OVER (ORDER BY dialogue_id) AS rank,"
        " dialogue_id, sample_id FROM dialogues"
    )
    have = conn.execute("SELECT COUNT(*) FROM temp.base").fetchone()[0]
    if not 0 < have <= n:
        raise ValueError(f"cannot grow a store of {have} dialogues to {n}")
    names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    first = {"samples": 0, "dialogues": 1}  # parents before the rows that refer to them
    names = [t for t in names if t != "labels"]  # the copies' names are the base's
    sqls = [_copy_sql(conn, t) for t in sorted(names, key=lambda t: first.get(t, 2))]
    with conn:
        for k in range(1, -(-n // have)):
            for sql in filter(None, sqls):
                conn.execute(sql, {"sfx": f"~g{k}", "m": min(have, n - k * have)})
        conn.execute("UPDATE meta SET value = ? WHERE key = 'expected_dialogues'", (str(n),))
    conn.close()
    return dest


def store_figures(run_dir: Path, n: int) -> tuple[dict[str, int], dict[str, Any]]:
    """Row counts, and the store's bytes: whole, per dialogue, per table and index."""
    path = run_dir / STORE
    size = sum(p.stat().st_size for p in run_dir.glob(STORE + "*"))
    conn = sqlite3.connect(path)
    try:
        counts = {
            t: int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0])
            for t in ("samples", "turns", "llm_calls", "tool_calls")
        }
        try:
            rows = conn.execute(
                "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
            )
            tables: dict[str, int] | None = {str(a): int(b) for a, b in rows}
        except sqlite3.OperationalError:  # SQLite built without dbstat
            tables = None
    finally:
        conn.close()
    return counts, {"bytes": size, "bytes_per_dialogue": round(size / n), "tables": tables}


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def measure(args: list[str], cwd: Path, cap_gib: float | None) -> dict[str, Any]:
    """One CLI command as a child: exit code, wall, CPU and peak RSS from its rusage."""

    def cap() -> None:
        if cap_gib is not None:
            limit = int(cap_gib * GIB)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    cmd = [sys.executable, "-m", "macrs_sim.cli", *args]
    err = cwd / f"stderr-{time.monotonic_ns()}.txt"
    start = time.perf_counter()
    with err.open("wb") as err_file:
        child = subprocess.Popen(
            cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err_file, preexec_fn=cap
        )
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = code = os.waitstatus_to_exitcode(status)
    out: dict[str, Any] = {
        "exit_code": code,
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "user_s": round(usage.ru_utime, 2),
        "sys_s": round(usage.ru_stime, 2),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),  # KiB on Linux
    }
    lines = err.read_text(errors="replace").strip().splitlines()
    if code != 0:
        out["error"] = lines[-1][:300] if lines else ""
    return out


def campaign(n: int, where: Path, opts: argparse.Namespace) -> tuple[Path | None, dict[str, Any]]:
    """A real campaign of `n` dialogues through `macrs-sim run` (users made first, untimed);
    its run directory, None when it failed."""
    where.mkdir(parents=True)
    asyncio.run(_users(n, where / "samples.jsonl"))
    toml = where / "scenario.toml"
    toml.write_text(scenario_to_toml(scenario(n, opts.concurrency, where / "samples.jsonl")))
    runs = where / "runs"
    figures = measure(["run", str(toml), "--output-dir", str(runs), "--no-progress"], where, None)
    dirs = sorted(d for d in runs.iterdir() if d.is_dir()) if runs.is_dir() else []
    if figures["exit_code"] != 0 or len(dirs) != 1:
        return None, figures
    return dirs[0], {**figures, "store_bytes": (dirs[0] / STORE).stat().st_size}


def _line(points: list[tuple[int, float]], n: int, through_origin: bool) -> float:
    """The least-squares line through `points` at `n` (one point: proportional or flat)."""
    if len(points) == 1:
        x, y = points[0]
        return y * n / x if through_origin else y
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return my + slope * (n - mx)


def extrapolate(runs: dict[int, dict[str, Any]], n: int) -> dict[str, Any]:
    pts = sorted(runs.items())
    wall = _line([(x, r["wall_s"]) for x, r in pts], n, True)
    cpu = _line([(x, r["cpu_s"]) for x, r in pts], n, True)
    peak = _line([(x, r["peak_rss_mib"]) for x, r in pts], n, False)
    return {
        "extrapolated": True,
        "from_dialogues": [x for x, _ in pts],
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "peak_rss_mib": round(peak, 1),
    }


def size_record(n: int, base_run: Path, work: Path, opts: argparse.Namespace) -> dict[str, Any]:
    run_dir = grow(base_run, work / f"grown-{n}", n)
    counts, store = store_figures(run_dir, n)
    site = work / f"site-{n}"
    report = measure(["report", str(run_dir)], work, opts.cap_gib)
    view = measure(["view", str(run_dir), "--out", str(site)], work, opts.cap_gib)
    record: dict[str, Any] = {
        "dialogues": n,
        **counts,
        "store": store,
        "report": report,
        "view": {**view, "site_bytes": dir_bytes(site)},
    }
    if n <= opts.run_max:
        _, figures = campaign(n, work / f"run-{n}", opts)
        record["run"] = {"extrapolated": False, **figures}
        if not opts.keep:
            shutil.rmtree(work / f"run-{n}")
    if not opts.keep:
        shutil.rmtree(run_dir)
        shutil.rmtree(site, ignore_errors=True)
    return record


def _ran(record: dict[str, Any]) -> bool:
    """A size whose campaign was run (not extrapolated) and finished."""
    run = record.get("run", {})
    return not run.get("extrapolated", True) and run["exit_code"] == 0


def _cpu_per_dialogue(records: list[dict[str, Any]], base: dict[str, Any], n0: int) -> float:
    """`run` less the standalone report at the same size, per dialogue (mean over sizes)."""
    rates = [
        (r["run"]["cpu_s"] - r["report"]["cpu_s"]) / r["dialogues"] for r in records if _ran(r)
    ]
    return sum(rates) / len(rates) if rates else float(base["cpu_s"]) / n0


def targets(records: list[dict[str, Any]], per_dialogue: float) -> dict[str, Any]:
    first, last = records[0], records[-1]
    peak: dict[str, bool] = {}
    growth: dict[str, bool] = {}
    for cmd in ("run", "report", "view"):
        if not last[cmd].get("extrapolated"):
            peak[cmd] = last[cmd]["peak_rss_mib"] < 1024 and last[cmd]["exit_code"] == 0
        if not (first[cmd].get("extrapolated") or last[cmd].get("extrapolated")):
            growth[cmd] = last[cmd]["peak_rss_mib"] <= 1.25 * first[cmd]["peak_rss_mib"]
    quarter = {
        str(r["dialogues"]): r["report"]["cpu_s"] <= 0.25 * per_dialogue * r["dialogues"]
        for r in records
    }
    return {
        "peak_under_1_gib_at_largest": peak,
        "peak_largest_at_most_1_25x_smallest": growth,
        "report_cpu_at_most_quarter_of_campaign": quarter,
    }


def run(opts: argparse.Namespace, work: Path) -> dict[str, Any]:
    load_start = os.getloadavg()
    base_run, base = campaign(opts.base, work / "base", opts)
    if base_run is None:
        raise SystemExit(f"the base campaign of {opts.base} dialogues failed: {base}")
    records = [size_record(n, base_run, work, opts) for n in opts.sizes]
    measured = {opts.base: base} | {r["dialogues"]: r["run"] for r in records if _ran(r)}
    for r in records:
        r.setdefault("run", extrapolate(measured, r["dialogues"]))
        for key in ("wall_s", "cpu_s"):
            r["run"][f"{key}_per_dialogue"] = round(r["run"][key] / r["dialogues"], 5)
    per_dialogue = _cpu_per_dialogue(records, base, opts.base)
    return {
        "benchmark": "scale",
        "machine": {"cpus": os.cpu_count(), "loadavg_start": load_start},
        "base": {"dialogues": opts.base, "run": base},
        "cap_gib": opts.cap_gib,
        "campaign_cpu_s_per_dialogue": round(per_dialogue, 5),
        "sizes": records,
        "targets": targets(records, per_dialogue),
    }


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sizes = "5000,20000,100000"
    ap.add_argument("--sizes", default=sizes, type=lambda s: sorted(int(x) for x in s.split(",")))
    ap.add_argument("--base", type=int, default=1000)
    ap.add_argument("--run-max", type=int, default=20000)
    ap.add_argument("--cap-gib", type=float, default=None)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--keep", action="store_true", help="keep the stores and sites")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    opts = parse(argv)
    if opts.workdir is not None:
        opts.workdir.mkdir(parents=True, exist_ok=True)
    # A folder of its own, even in --workdir: only what the benchmark made is deleted.
    work = Path(tempfile.mkdtemp(prefix="bench-scale-", dir=opts.workdir)).resolve()
    try:
        report = run(opts, work)
    finally:
        if not opts.keep:
            shutil.rmtree(work, ignore_errors=True)
    report["machine"]["loadavg_end"] = os.getloadavg()
    report["workdir"] = str(work) if opts.keep else None
    json.dump(report, sys.stdout)
    print()
    return report


if __name__ == "__main__":
    main()
