"""`macrs-sim realism RUN... --reference CORPUS`: the simulated users beside a corpus's
seekers (table, realism.md, the figure); two runs or more also say whose users are closer."""

from __future__ import annotations

import argparse
from pathlib import Path

from macrs_sim.errors import DataError


def _realism(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.markdown import markdown_table
    from macrs_sim.analysis.realism.report import measure_realism, write_realism
    from macrs_sim.analysis.realism.table import table_rows
    from macrs_sim.analysis.report.summary import run_catalog
    from macrs_sim.analysis.runs.load import load_run
    from macrs_sim.textsafe import terminal_line

    corpus = Path(args.reference)
    if not corpus.is_file():
        raise DataError(f"{corpus}: corpus file not found")
    if args.draws < 1 or args.sample < 1:
        raise DataError("--draws and --sample must be at least 1")
    runs = [load_run(Path(p)) for p in args.runs]
    catalog = run_catalog(runs[0].path)
    if catalog is None:
        print("note: the run's dataset is not at hand: no title or attribute matching")
    r = measure_realism(runs, corpus, catalog, draws=args.draws, cap=args.sample)
    out = Path(args.out) if args.out else runs[0].path / "realism"
    path = write_realism(r, out)
    for line in markdown_table(*table_rows(r.results, r.names)):
        print(terminal_line(line))
    print(terminal_line(f"corpus: {r.stats.summary()}"))
    print(f"realism: {path}   figure: {path.parent / 'realism.png'}")
    return 0


def add_realism_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("realism", help="simulated users beside a human corpus's seekers")
    p.add_argument("runs", nargs="+", help="run directories (two or more: whose users are closer)")
    p.add_argument(
        "--reference", required=True, help="corpus file: ReDial's *_data.jsonl or the turns form"
    )
    p.add_argument("--out", help="output folder (default: RUN/realism)")
    p.add_argument("--draws", type=int, default=200, help="bootstrap draws (default 200)")
    p.add_argument(
        "--sample", type=int, default=20_000, help="dialogues kept a side (default 20,000)"
    )
    p.set_defaults(func=_realism)
