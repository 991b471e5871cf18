"""Who is calling the model: dialogue, system, role, turn.

Agents set this around each model call; client wrappers (accounting, the
scripted fake) read it. A context variable keeps the `ChatCompletionClient`
interface unchanged while still attributing every call.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class CallContext:
    role: str
    dialogue_id: str | None = None
    system: str | None = None
    turn: int | None = None


_CURRENT: ContextVar[CallContext | None] = ContextVar("macrs_sim_call_context", default=None)


def current_call() -> CallContext:
    """The context of the call being made; role "unknown" outside any `calling` block."""
    return _CURRENT.get() or CallContext(role="unknown")


@contextmanager
def calling(ctx: CallContext) -> Iterator[CallContext]:
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)
