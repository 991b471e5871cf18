"""Which failures are the server's (an outage) rather than the dialogue's.

A dialogue that fails because its endpoint was unreachable, timed out or kept
answering 5xx / 429 after every retry says nothing about the system under test:
it is left unfinished (not stored), and the same command runs it again. Faults
injected by `[faults]` stand for faults that cost a dialogue, so they stay errors.
"""

from __future__ import annotations

import openai

from macrs_sim.llm.faults import FAKE_URL, InjectedTimeoutError
from macrs_sim.llm.retry import is_transient


def _injected(err: BaseException) -> bool:
    if isinstance(err, InjectedTimeoutError):
        return True
    request = getattr(err, "request", None) if isinstance(err, openai.APIError) else None
    return request is not None and str(request.url) == FAKE_URL


def is_outage(err: BaseException) -> bool:
    """`err`, or an error it was raised from, is a real endpoint's transient failure."""
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if is_transient(current) and not _injected(current):
            return True
        current = current.__cause__
    return False
