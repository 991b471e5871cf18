"""Checkpoints beside the dataset, keyed by its fingerprint, the split and the hyperparameters.

A checkpoint is one .npz file (the ranker's arrays plus a JSON record of how it
was trained), written to a temporary file and renamed, so it is whole or absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

from macrs_sim.data.splits import Interactions
from macrs_sim.rankers.base import Arrays

CACHE_FORMAT = "1"
_META = "__meta__"


def default_cache_dir(data: Interactions) -> Path:
    """`<database>.models/` beside a prepared database; the user cache for the demo."""
    if data.database is not None:
        return data.database.parent / f"{data.database.name}.models"
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "macrs-sim" / "models" / "demo"


def cache_key(kind: str, params: BaseModel, fingerprint: str, split_key: str) -> str:
    record = {
        "format": CACHE_FORMAT,
        "kind": kind,
        "params": params.model_dump(mode="json"),
        "dataset": fingerprint,
        "split": split_key,
    }
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:16]


def checkpoint_path(cache_dir: Path, kind: str, key: str) -> Path:
    return cache_dir / f"{kind}-{key}.npz"


def write_checkpoint(path: Path, arrays: Arrays, meta: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    blob = np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            payload: dict[str, Any] = {**arrays, _META: blob}
            np.savez(f, **payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_checkpoint(path: Path) -> tuple[Arrays, dict[str, Any]] | None:
    """The arrays and training record, or None when absent or unreadable (retrain)."""
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays: Arrays = {k: z[k] for k in z.files}
        meta: dict[str, Any] = json.loads(arrays.pop(_META).tobytes().decode())
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return None
    return arrays, meta
