"""`macrs-sim view RUN [RUN...] [--out DIR] [--serve [--port N]]`: a static HTML site of runs.

Plain print: paths stay on one unwrapped line whatever the terminal width.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from macrs_sim.errors import DataError


def _default_out(runs: list[str]) -> Path:
    if len(runs) == 1:
        return Path(runs[0]) / "view"
    return Path(f"views/view-{time.strftime('%Y%m%d-%H%M%S')}")


def _view(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.memory import give_back_freed_memory
    from macrs_sim.analysis.report.summary import run_catalog
    from macrs_sim.analysis.runs.load import load_run
    from macrs_sim.viewer.serve import site_server, site_url
    from macrs_sim.viewer.site import build_site

    give_back_freed_memory()  # freed numpy temporaries go back (analysis/memory.py)
    if not 0 <= args.port <= 65535:
        raise DataError(f"--port {args.port}: expected a port number from 0 to 65535")
    runs = [load_run(Path(p)) for p in args.runs]  # one clear line for a bad path
    out = Path(args.out) if args.out else _default_out(args.runs)
    site = build_site(runs, out, lambda r: run_catalog(r.path))
    print(f"viewer: {site.index_html} ({site.dialogues} dialogues, built in {site.build_s:.1f} s)")
    if not args.serve:
        print(f"open it in a browser: {site.index_html.as_uri()}")
        return 0
    server = site_server(site.path, args.port)
    print(f"serving on {site_url(server)} (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped")
    finally:
        server.server_close()
    return 0


def add_view_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    view = sub.add_parser("view", help="a static HTML site to browse runs' dialogues")
    view.add_argument("runs", nargs="+", metavar="RUN", help="run directories")
    view.add_argument("--out", help="site folder (default: RUN/view, or views/view-<time>)")
    view.add_argument("--serve", action="store_true", help="also serve it on 127.0.0.1")
    view.add_argument("--port", type=int, default=0, help="port for --serve (default: a free one)")
    view.set_defaults(func=_view)
