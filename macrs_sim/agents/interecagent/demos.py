"""Dynamic demonstrations (paper §3.3): the k (intent, plan) pairs closest to the request.

The demonstrations are data (demonstrations.json, placeholders ITEM, TYPE, DATE, DESCRIPTION,
K); seed_demonstrations.json holds the ~20 hand-written seeds that `eval interecagent demos`
grows into a generated file (paper §3.3), which the `demonstrations_file` option loads.
Intents are embedded once with the toolkit's text model when one is given, else compared by
token overlap (cosine over word sets); ties keep file order, so retrieval is deterministic.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import TypeAdapter, ValidationError

from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.data.domain import Domain
from macrs_sim.errors import DataError
from macrs_sim.protocol import Record
from macrs_sim.textfile import loads_json, not_regular, read_utf8
from macrs_sim.tools.embedding import TextEncoder

_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "i",
        "me",
        "my",
        "to",
        "of",
        "and",
        "or",
        "for",
        "some",
        "any",
        "is",
        "it",
        "that",
        "this",
        "please",
    ]
)


class Demonstration(Record):
    intent: str
    plan: tuple[PlanStep, ...]

    def render(self) -> str:
        steps = [s.model_dump(mode="json") for s in self.plan]
        return f"Request: {self.intent}\nPlan: {json.dumps(steps, ensure_ascii=False)}"


# The demonstrations are the paper's, about films ("I want some TYPE movies"): shown in
# another domain, their item words are that domain's.
_FILM_WORDS = re.compile(r"\b(movie|film)(s?)\b", re.IGNORECASE)


def in_domain(text: str, domain: Domain) -> str:
    """`text` with "movie(s)" and "film(s)" in `domain`'s words, capitals kept (films: as is)."""

    def one(found: re.Match[str]) -> str:
        film, plural = found.group(1).lower() == "film", bool(found.group(2))
        if film:
            word = domain.synonym_plural if plural else domain.synonym
        else:
            word = domain.plural if plural else domain.noun
        return word[:1].upper() + word[1:] if found.group(1)[0].isupper() else word

    return _FILM_WORDS.sub(one, text)


SEED_FILE = "seed_demonstrations.json"
_DEMOS = TypeAdapter(list[Demonstration])


def parse_demonstrations(text: str, source: str) -> list[Demonstration]:
    """A JSON list of {"intent", "plan"}; DataError in one line naming `source`."""
    try:
        raw: Any = loads_json(text)
        demos = _DEMOS.validate_python(raw)
    except json.JSONDecodeError as err:
        raise DataError(f"{source}: not JSON ({err.msg}, line {err.lineno})") from None
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise DataError(f"{source}: not a demonstration list ({where}: {first['msg']})") from None
    if not demos:
        raise DataError(f"{source}: no demonstrations")
    return demos


def _package_text(name: str) -> str:
    return (resources.files("macrs_sim.agents.interecagent") / name).read_text(encoding="utf-8")


def load_demonstrations(path: str | Path | None = None) -> list[Demonstration]:
    """The file at `path` (a generated one), else the bundled demonstrations."""
    if path is None:
        return parse_demonstrations(_package_text("demonstrations.json"), "demonstrations.json")
    problem = not_regular(Path(path))
    if problem is not None:
        raise DataError(f"demonstrations_file {path}: {problem}")
    try:
        Path(path).stat()
    except OSError as err:
        raise DataError(f"demonstrations_file {path}: {err.strerror or err}") from None
    text = read_utf8(Path(path), DataError, what="demonstrations_file")
    return parse_demonstrations(text, f"demonstrations_file {path}")


def load_seed_demonstrations() -> list[Demonstration]:
    """The hand-written seeds the generator starts from."""
    return parse_demonstrations(_package_text(SEED_FILE), SEED_FILE)


def dump_demonstrations(demos: Sequence[Demonstration]) -> str:
    """The file text `load_demonstrations` reads back."""
    raw = [d.model_dump(mode="json") for d in demos]
    return json.dumps(raw, indent=1, ensure_ascii=False) + "\n"


def tokens(text: str) -> frozenset[str]:
    return frozenset(w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP)


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


class DemoIndex:
    def __init__(self, demos: Sequence[Demonstration], encoder: TextEncoder | None = None) -> None:
        self.demos = list(demos)
        self.encoder = encoder
        self._tokens = [tokens(d.intent) for d in self.demos]
        self._vectors = encoder.encode([d.intent for d in self.demos]) if encoder else None

    @property
    def method(self) -> str:
        return "embedding" if self.encoder is not None else "tokens"

    def scores(self, request: str) -> list[float]:
        if self.encoder is None or self._vectors is None:
            query = tokens(request)
            return [overlap(query, t) for t in self._tokens]
        q = np.asarray(self.encoder.encode([request]))[0]
        v = np.asarray(self._vectors)
        norms = np.linalg.norm(v, axis=1) * (np.linalg.norm(q) or 1.0)
        sims = (v @ q) / np.where(norms == 0, 1.0, norms)
        return [round(float(s), 6) for s in sims]

    def nearest(self, request: str, k: int) -> list[Demonstration]:
        """The k most similar; ties keep file order."""
        scores = self.scores(request)
        order = sorted(range(len(self.demos)), key=lambda i: (-scores[i], i))
        return [self.demos[i] for i in order[:k]]

    def fixed(self, k: int) -> list[Demonstration]:
        """The "w/o D" ablation: the same first k every time."""
        return self.demos[:k]
