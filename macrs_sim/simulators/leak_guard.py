"""Catches a simulated user naming its hidden target, and redacts it as a last resort."""

from __future__ import annotations

import re

from macrs_sim.data.grounding import normalize_title

REDACTION = "that movie"


class LeakGuard:
    """Whole-word match of the target's title.

    Titles of one short word ("Up", "Heat") are matched case-sensitively on the
    original spelling, so everyday words ("it heats up") do not count as leaks.
    """

    def __init__(self, title: str) -> None:
        self.title = title.strip()
        norm = normalize_title(self.title)
        self._loose = len(norm.split()) >= 2 or len(norm) >= 6
        if self._loose:
            words = [re.escape(w) for w in norm.split()]
            self._pattern = re.compile(r"\b" + r"[^a-z0-9]+".join(words) + r"\b")
        else:
            self._pattern = re.compile(r"\b" + re.escape(self.title) + r"\b")

    def leaks(self, text: str) -> bool:
        return self._pattern.search(self._prepare(text)) is not None

    def redact(self, text: str) -> str:
        if self._loose:
            # Map back by matching the title words case-insensitively on the original text.
            words = [re.escape(w) for w in normalize_title(self.title).split()]
            pattern = re.compile(r"(?:the\s+)?" + r"[^A-Za-z0-9]+".join(words), re.IGNORECASE)
            return pattern.sub(REDACTION, text)
        return self._pattern.sub(REDACTION, text)

    def _prepare(self, text: str) -> str:
        if not self._loose:
            return text
        return re.sub(r"[^a-z0-9]+", " ", text.lower().replace("&", " and "))
