"""download_movielens against 127.0.0.1 only: a closed port, and a tiny local http.server."""

import functools
import socket
import threading
import zipfile
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from macrs_sim.data.movielens import MOVIELENS_RELEASES, download_movielens, prepare_movielens
from macrs_sim.data.movielens import download as download_module
from macrs_sim.errors import DataError


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def local_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """(base URL, served folder) of an HTTP server on 127.0.0.1."""
    served = tmp_path / "served"
    served.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(served))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", served
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


def test_release_table() -> None:
    names = ["ml-latest-small", "ml-latest", "ml-25m", "ml-20m", "ml-1m", "ml-10m"]
    assert sorted(MOVIELENS_RELEASES) == sorted(names)
    for name in names:
        assert MOVIELENS_RELEASES[name] == (
            f"https://files.grouplens.org/datasets/movielens/{name}.zip"
        )


def test_unknown_release_lists_known_names(tmp_path: Path) -> None:
    with pytest.raises(
        DataError, match="unknown MovieLens release 'ml-5m'; expected one of"
    ) as info:
        download_movielens("ml-5m", tmp_path)
    assert all(name in str(info.value) for name in MOVIELENS_RELEASES)
    assert list(tmp_path.iterdir()) == []


def test_network_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/ml-latest-small.zip"
    monkeypatch.setitem(download_module.MOVIELENS_RELEASES, "ml-latest-small", url)
    dest = tmp_path / "downloads"
    with pytest.raises(DataError) as info:
        download_movielens("ml-latest-small", dest, timeout_s=5)
    message = str(info.value)
    assert message.startswith(f"could not download ml-latest-small from {url}: ")
    assert message.endswith(
        "; download it in a browser and run `macrs-sim data prepare movielens PATH`"
    )
    assert "\n" not in message
    assert list(dest.iterdir()) == []


def test_http_error_and_non_zip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, local_server: tuple[str, Path]
) -> None:
    base, served = local_server
    monkeypatch.setitem(download_module.MOVIELENS_RELEASES, "ml-1m", f"{base}/missing.zip")
    with pytest.raises(
        DataError, match="could not download ml-1m from .*missing.zip: HTTP 404 File not found;"
    ):
        download_movielens("ml-1m", tmp_path / "d")
    (served / "page.zip").write_text("<html>sorry</html>")
    monkeypatch.setitem(download_module.MOVIELENS_RELEASES, "ml-1m", f"{base}/page.zip")
    with pytest.raises(DataError, match="the download is not a zip archive"):
        download_movielens("ml-1m", tmp_path / "d")
    assert list((tmp_path / "d").iterdir()) == []


def test_download_then_prepare(
    latest_small: Path,
    tmp_path: Path,
    out_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    local_server: tuple[str, Path],
    make_zip: Callable[[Path, Path], Path],
) -> None:
    base, served = local_server
    make_zip(latest_small, served / "ml-latest-small.zip")
    url = f"{base}/ml-latest-small.zip"
    monkeypatch.setitem(download_module.MOVIELENS_RELEASES, "ml-latest-small", url)
    dest = tmp_path / "downloads"
    path = download_movielens("ml-latest-small", dest)
    assert path == dest / "ml-latest-small.zip"
    assert path.read_bytes() == (served / "ml-latest-small.zip").read_bytes()
    assert [p.name for p in dest.iterdir()] == ["ml-latest-small.zip"]  # no temp file left
    assert zipfile.is_zipfile(path)
    summary = prepare_movielens(path, out_dir / "ml.sqlite")
    assert (summary.release, summary.n_items, summary.n_interactions) == ("ml-latest-small", 8, 9)
