"""Shared fixtures: a small hand-made catalog, so expected values can be worked out by hand.

Also a session-wide check that the suite leaves the working tree clean: tests write only
under tmp_path, so a file the run added or changed in the checkout fails the session.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item, Sample
from tests.cores import worker_cores


def _item(item_id: str, title: str, year: int, genres: tuple[str, ...], **kw: object) -> Item:
    return Item.model_validate(
        {"item_id": item_id, "title": title, "year": year, "genres": genres, **kw}
    )


@pytest.fixture
def catalog() -> Catalog:
    return Catalog(
        [
            _item(
                "m1",
                "Heat",
                1995,
                ("Crime", "Thriller"),
                director="Michael Mann",
                cast=("Al Pacino", "Robert De Niro"),
            ),
            _item(
                "m2",
                "The Matrix",
                1999,
                ("Action", "Sci-Fi"),
                director="Lana Wachowski & Lilly Wachowski",
            ),
            _item("m3", "Up", 2009, ("Animation", "Family"), director="Pete Docter"),
            _item("m4", "Alien", 1979, ("Horror", "Sci-Fi"), director="Ridley Scott"),
            _item("m5", "Toy Story", 1995, ("Animation", "Comedy")),
            _item("m6", "Amélie", 2001, ("Comedy", "Romance")),
            _item("m7", "Heat", 1986, ("Action",)),
            _item(
                "m8",
                "The Godfather",
                1972,
                ("Crime", "Drama"),
                keywords=("mafia family", "succession"),
            ),
        ]
    )


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's server with the embedded GGUF, one for the whole run: its URL."""
    from tests.llama_server import llama_cpp_server

    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    with llama_cpp_server(log) as url:
        yield url


@pytest.fixture
def prompts() -> PromptLibrary:
    return PromptLibrary()


@pytest.fixture
def sample() -> Sample:
    return Sample(
        sample_id="s-u1",
        user_id="u1",
        history=("m1", "m4"),
        target_id="m2",
        target_profile=("virtual reality", "martial arts"),
        opening="I want a mind-bending action film.",
    )


# --- tiers: what `./scripts/test --fast` leaves out, and who runs the real model -------------

SLOW_MARKS = frozenset({"embedded", "textmodel", "browser", "bench", "soak"})

if "PYTEST_XDIST_WORKER" in os.environ:
    # An xdist worker's torch, BLAS and the child processes it starts use its share of the
    # cores (tests/cores.py), not every core each: oversubscribed, they and llama.cpp's
    # threads mostly wait for each other.
    os.environ.setdefault("OMP_NUM_THREADS", str(worker_cores()))


@pytest.hookimpl(tryfirst=True)  # before xdist's own, which reads the group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test with a slow mark is `slow` too, so `-m "not slow"` is the fast tier. Under
    xdist (`--dist loadgroup`) the real-model tests make two groups, each on one worker: those
    of llama-cpp-python's server (one server a run) and those in-process (whose rows are run
    once for two tests: campaign/embedded_rows.py). Each worker gives llama.cpp its share of
    the cores (tests/cores.py), so the groups can run side by side; xdist starts the largest
    groups first, and the rest fill in around them."""
    for item in items:
        names = {mark.name for mark in item.iter_markers()}
        if names & SLOW_MARKS:
            item.add_marker(pytest.mark.slow)
        if "embedded" in names:
            server = "llama_server" in getattr(item, "fixturenames", ())
            group = "real-model-server" if server else "real-model-in-process"
            item.add_marker(pytest.mark.xdist_group(group))


# --- the suite must leave the working tree clean ------------------------------------------

_TREE_KEY = pytest.StashKey[tuple[Path, dict[str, str]]]()


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _tree_state(root: Path) -> dict[str, str] | None:
    """Each path `git status` reports, with its status and a hash of its content (so a file
    that was already modified and changes again is caught too); None outside a checkout."""
    out = _git(root, "status", "--porcelain", "--untracked-files=all", "-z")
    if out is None:
        return None
    state: dict[str, str] = {}
    for entry in filter(None, out.split("\0")):
        code, name = entry[:2], entry[3:]
        file = root / name
        digest = hashlib.sha256(file.read_bytes()).hexdigest() if file.is_file() else "-"
        state[name] = f"{code} {digest}"
    return state


def pytest_sessionstart(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller checks
        return
    top = _git(Path(__file__).parent, "rev-parse", "--show-toplevel")
    if top is None:
        return  # not a git checkout (an sdist, a copy): nothing to compare
    root = Path(top.strip())
    state = _tree_state(root)
    if state is not None:
        session.config.stash[_TREE_KEY] = (root, state)


def pytest_sessionfinish(session: pytest.Session) -> None:
    recorded = session.config.stash.get(_TREE_KEY, None)
    if recorded is None:
        return
    root, before = recorded
    after = _tree_state(root) or {}
    dirtied = sorted(name for name, state in after.items() if before.get(name) != state)
    if not dirtied:
        return
    message = (
        f"the test run left the working tree dirty ({len(dirtied)} new, changed or deleted "
        f"file(s)): {', '.join(dirtied)} -- tests must write only under tmp_path"
    )
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"\nERROR: {message}", red=True, bold=True)
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
