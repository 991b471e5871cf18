"""`macrs-sim view --serve`: the site over HTTP on 127.0.0.1 only (never other interfaces)."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from macrs_sim.errors import DataError

HOST = "127.0.0.1"


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """No line per request: the terminal keeps the URL visible."""


def site_server(site: Path, port: int = 0) -> ThreadingHTTPServer:
    """A server for `site` bound to 127.0.0.1:`port` (0: a free port); call serve_forever()."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    try:
        return ThreadingHTTPServer((HOST, port), handler)
    except OSError as exc:
        raise DataError(f"--port {port}: cannot listen on {HOST}:{port} ({exc.strerror})") from None


def site_url(server: ThreadingHTTPServer) -> str:
    return f"http://{HOST}:{server.server_address[1]}/index.html"
