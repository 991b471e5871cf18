"""Dynamic demonstrations (paper §3.3): the k (intent, plan) pairs closest to the request.

The demonstrations are data (demonstrations.json, placeholders ITEM, TYPE, DATE, DESCRIPTION,
K). Intents are embedded once with the toolkit's text model when one is given, else compared
by token overlap (cosine over word sets); ties keep file order, so retrieval is deterministic.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

import numpy as np
from pydantic import TypeAdapter

from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.protocol import Record
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


def load_demonstrations() -> list[Demonstration]:
    ref = resources.files("macrs_sim.agents.interecagent") / "demonstrations.json"
    raw: Any = json.loads(ref.read_text(encoding="utf-8"))
    return TypeAdapter(list[Demonstration]).validate_python(raw)


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
