"""Checkpoints beside the dataset, keyed by its interactions, the split and the hyperparameters.

The dataset's fingerprint names its catalog and counts, not who saw what: a database
prepared again from other ratings can share it. The key therefore also carries a
digest of the interactions themselves (`interactions_digest`).

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


def interactions_digest(data: Interactions) -> str:
    """SHA-256 (16 hex digits) of the catalog's item ids in order and of every user's
    sequence, users sorted: equal for equal interactions, whatever the dataset's name."""
    h = hashlib.sha256()
    h.update(f"{len(data.item_ids)}\n".encode())
    for item_id in data.item_ids:
        h.update(item_id.encode() + b"\n")
    for user in sorted(data.sequences):
        seq = np.asarray(data.sequences[user], dtype="<i8")
        h.update(f"{user}\t{len(seq)}\n".encode() + seq.tobytes())
    return h.hexdigest()[:16]


def data_identity(data: Interactions, digest: str | None = None) -> str:
    """What a checkpoint was trained on: the dataset's fingerprint and its interactions
    (`digest`: their `interactions_digest`, when already computed)."""
    return f"{data.fingerprint}|interactions={digest or interactions_digest(data)}"


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
