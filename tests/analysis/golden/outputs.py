"""What `report`, `compare` and `view` write for the golden runs, as comparable fingerprints.

Each command runs as `macrs-sim` would (driver.py: a process of its own, COLUMNS=100, run
paths relative to the work folder); its outputs are the files it added or changed there (the
runs' stores and lock files are inputs, never outputs). A text file is pinned by the sha256
of its masked text (masks.py says what is masked and why), a PNG by the sha256 of its decoded
pixels (mode, size, bytes: PNG metadata such as the matplotlib version may differ without a
visible change), stdout and stderr like text files.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

import macrs_sim
from tests.analysis.golden.masks import mask

# (key, argv after `macrs-sim`), run in this order in the work folder.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("report", ("report", "golden-a")),
    ("compare", ("compare", "golden-a", "golden-b", "--out", "compare-ab")),
    ("compare-refused", ("compare", "golden-a", "golden-c", "--out", "compare-refused")),
    ("compare-split", ("compare", "golden-a", "golden-c", "--split", "--out", "compare-split")),
    ("view", ("view", "golden-a", "golden-b", "--out", "view-ab")),
)
# Whose pinned text golden.json keeps besides the hash, so a mismatch shows a diff (the
# report's markdown and CSV files, the site's page and list data; ~200 KB in all).
KEEP_TEXT = (".md", ".csv", "/index.html", "/data/index.js")
_INPUTS = re.compile(r"(^|/)(store\.sqlite.*|\.lock|\.claim\.lock)$")
TESTS_ROOT = Path(__file__).resolve().parents[3]  # the checkout holding tests/
_ENV_DROP = ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "LINES", "COLUMNS")


@dataclass(frozen=True)
class Output:
    """One command's fingerprint: exit status, stdout/stderr and file hashes, kept texts."""

    rc: int
    hashes: dict[str, str]  # "<stdout>", "<stderr>", or a path relative to the work folder
    texts: dict[str, str]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(path: Path, work: Path) -> tuple[str, str | None]:
    """(sha256, masked text or None for a binary file) of one output file."""
    data = path.read_bytes()
    if path.suffix == ".png":
        with Image.open(io.BytesIO(data)) as img:
            pixels = f"{img.mode} {img.size}\n".encode() + img.tobytes()
        return sha256(pixels), None
    try:
        text = mask(data.decode("utf-8"), work, path.suffix)
    except UnicodeDecodeError:
        return sha256(data), None
    return sha256(text.encode()), text


def snapshot(work: Path) -> dict[str, str]:
    files = (p for p in work.rglob("*") if p.is_file())
    rels = (p.relative_to(work).as_posix() for p in files)
    return {rel: sha256((work / rel).read_bytes()) for rel in rels if not _INPUTS.search(rel)}


def _env(cache: Path) -> dict[str, str]:
    """A shell's environment for `macrs-sim`: 100 columns, no colour switches, this checkout's
    macrs_sim and tests first on the path, the ranker cache under the generation's folder."""
    env = {k: v for k, v in os.environ.items() if k not in _ENV_DROP}
    roots = {str(Path(macrs_sim.__file__).resolve().parents[1]), str(TESTS_ROOT)}
    env["PYTHONPATH"] = os.pathsep.join([*sorted(roots), *filter(None, [env.get("PYTHONPATH")])])
    extra = {"COLUMNS": "100", "PYTHONIOENCODING": "utf-8", "XDG_CACHE_HOME": str(cache)}
    return {**env, **extra}


def outputs_of(
    key: str, rc: int, streams: tuple[str, str], changed: list[str], work: Path
) -> Output:
    """One command's Output from its exit status, stdout and stderr and the files it wrote."""
    texts = {"<stdout>": mask(streams[0], work), "<stderr>": mask(streams[1], work)}
    hashes = {k: sha256(v.encode()) for k, v in texts.items()}
    for rel in changed:
        hashes[rel], text = fingerprint(work / rel, work)
        if text is not None and rel.endswith(KEEP_TEXT):
            texts[rel] = text
    return Output(rc, hashes, texts)


def generate(root: Path) -> dict[str, Output]:
    """Build the golden runs under `root` and run every command on them (driver.py)."""
    from tests.analysis.golden.golden_runs import build_runs

    cache, work, out = root / "xdg-cache", root / "work", root / "outputs.json"
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(cache)  # a ranker's cache never goes to the user's
    try:
        build_runs(work)
    finally:
        if old is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = old
    driver = [sys.executable, "-m", "tests.analysis.golden.driver", str(work), str(out)]
    proc = subprocess.run(
        driver, cwd=root, env=_env(cache), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, f"the golden driver failed:\n{proc.stdout}\n{proc.stderr}"
    return from_json(json.loads(out.read_text(encoding="utf-8")))


def to_json(outputs: dict[str, Output]) -> dict[str, Any]:
    """golden.json's content; texts as lists of lines, so `git diff` shows what changed."""
    return {
        key: {
            "argv": list(dict(COMMANDS)[key]),
            "rc": o.rc,
            "sha256": o.hashes,
            "text": {name: text.splitlines(keepends=True) for name, text in o.texts.items()},
        }
        for key, o in outputs.items()
    }


def from_json(data: dict[str, Any]) -> dict[str, Output]:
    return {
        key: Output(
            rc=entry["rc"],
            hashes=entry["sha256"],
            texts={name: "".join(lines) for name, lines in entry["text"].items()},
        )
        for key, entry in data.items()
    }
