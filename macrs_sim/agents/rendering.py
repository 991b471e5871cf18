"""Pure text renderings of typed state for prompts (tested with exact strings)."""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.protocol import Utterance

NONE = "(none)"


def render_history(utterances: Sequence[Utterance]) -> str:
    """'User: ...' / 'Assistant: ...' lines, oldest first."""
    if not utterances:
        return NONE
    speaker = {"user": "User", "system": "Assistant"}
    return "\n".join(f"{speaker[u.speaker]}: {u.text}" for u in utterances)


def render_list(values: Sequence[str], sep: str = "; ") -> str:
    return sep.join(values) if values else NONE


def render_text(value: str) -> str:
    return value if value.strip() else NONE
