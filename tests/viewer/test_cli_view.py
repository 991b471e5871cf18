"""`macrs-sim view`: one line and exit 2 for bad input; the site; --serve on 127.0.0.1."""

from __future__ import annotations

import threading
import urllib.request
from pathlib import Path

import pytest

from macrs_sim.cli import main
from macrs_sim.viewer.serve import HOST, site_server, site_url
from tests.viewer.hostile_run import make_hostile_run


def _one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    return err


def test_bad_run_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(tmp_path / "nope"), "--out", str(tmp_path / "site")]) == 2
    assert "nope: run directory not found" in _one_error_line(capsys)
    (tmp_path / "empty").mkdir()
    assert main(["view", str(tmp_path / "empty")]) == 2
    assert "no store.sqlite" in _one_error_line(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty"]  # nothing half-written


def test_bad_port(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = make_hostile_run(tmp_path)
    assert main(["view", str(run), "--serve", "--port", "70000"]) == 2
    assert "--port 70000" in _one_error_line(capsys)


def test_view_writes_the_site_into_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_hostile_run(tmp_path)
    assert main(["view", str(run)]) == 0
    out = capsys.readouterr().out
    assert f"viewer: {run.absolute() / 'view' / 'index.html'} (4 dialogues" in out
    assert (run / "view" / "data" / "index.js").is_file()


def test_serve_on_loopback(tmp_path: Path) -> None:
    run = make_hostile_run(tmp_path)
    assert main(["view", str(run), "--out", str(tmp_path / "site")]) == 0
    server = site_server(tmp_path / "site", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert server.server_address[0] == HOST == "127.0.0.1"
        with urllib.request.urlopen(site_url(server), timeout=10) as page:
            assert page.status == 200 and b"<title>" in page.read()
        index = site_url(server).replace("index.html", "data/index.js")
        with urllib.request.urlopen(index, timeout=10) as data:
            assert data.read().startswith(b"MV.indexLoaded(")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
