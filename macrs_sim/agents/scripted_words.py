"""The scripted backend's canned sentences that speak of items, in a domain's words.

Films keep the sentences existing transcripts and tests hold; another domain gets its
noun, and no film detail (a soundtrack) where it has no counterpart.
"""

from __future__ import annotations

from macrs_sim.data.domain import MOVIES, Domain


def ask_line(domain: Domain = MOVIES) -> str:
    return f"What kind of {domain.noun} are you in the mood for?"


def chat_line(domain: Domain = MOVIES) -> str:
    detail = "with a memorable soundtrack" if domain.layout == "films" else "done well"
    return f"I love {domain.synonym_plural} {detail}."
