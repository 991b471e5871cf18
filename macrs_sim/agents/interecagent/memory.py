"""User profile memory: like / dislike / expect, for this dialogue and from the user's history.

Short-term: what the planner read from the messages in the prompt. Long-term: the sample's
history (liked items) and, with a dialogue window, the summary of the turns that fell out of
it (paper §3.2: the profile of the preceding segment merged into long-term memory). Tools read
both together (`likes`, `dislikes`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from macrs_sim.agents.interecagent.schemas import ProfileSummary, ProfileUpdate


@dataclass(frozen=True)
class ProfileState:
    """What an attempt may change (reverted when the critic rejects it)."""

    like: tuple[str, ...]
    dislike: tuple[str, ...]
    expect: tuple[str, ...]


def _add(field: list[str], values: Sequence[str]) -> None:
    for value in values:
        text = value.strip()
        if text and text not in field:
            field.append(text)


class ProfileMemory:
    """Entries are free text (titles or attributes) as the model wrote them; the ranking tool
    resolves the ones that are items."""

    def __init__(self, history: Sequence[str] = ()) -> None:
        self.long_term_likes: tuple[str, ...] = tuple(history)
        self.like: list[str] = []
        self.dislike: list[str] = []
        self.expect: list[str] = []
        # The summary of the turns that left the dialogue window.
        self.summary_like: list[str] = []
        self.summary_dislike: list[str] = []
        # Items this system already showed in the dialogue: not shown again.
        self.shown: list[str] = []

    def update(self, update: ProfileUpdate) -> None:
        _add(self.like, update.like)
        _add(self.dislike, update.dislike)
        _add(self.expect, update.expect)

    def merge_summary(self, summary: ProfileSummary) -> None:
        """RecAI's merge: a new like leaves the dislikes, a new dislike leaves the likes."""
        dislike = {v.strip() for v in summary.dislike}
        like = {v.strip() for v in summary.like}
        self.summary_like = [v for v in self.summary_like if v not in dislike]
        self.summary_dislike = [v for v in self.summary_dislike if v not in like]
        _add(self.summary_like, summary.like)
        _add(self.summary_dislike, summary.dislike)

    def likes(self) -> list[str]:
        return list(dict.fromkeys(self.summary_like + self.like))

    def dislikes(self) -> list[str]:
        return list(dict.fromkeys(self.summary_dislike + self.dislike))

    def snapshot(self) -> ProfileState:
        return ProfileState(tuple(self.like), tuple(self.dislike), tuple(self.expect))

    def restore(self, state: ProfileState) -> None:
        self.like, self.dislike = list(state.like), list(state.dislike)
        self.expect = list(state.expect)

    def render(self) -> str:
        def part(values: Sequence[str]) -> str:
            return "; ".join(values) if values else "(none)"

        text = (
            f"like: {part(self.like)}\ndislike: {part(self.dislike)}\n"
            f"expect: {part(self.expect)}\nhistory: {len(self.long_term_likes)} items"
        )
        if self.summary_like or self.summary_dislike:
            text += (
                f"\nearlier in the dialogue: like: {part(self.summary_like)}; "
                f"dislike: {part(self.summary_dislike)}"
            )
        return text

    def dump(self) -> dict[str, list[str]]:
        return {"like": list(self.like), "dislike": list(self.dislike),
                "expect": list(self.expect), "shown": list(self.shown),
                "summary_like": list(self.summary_like),
                "summary_dislike": list(self.summary_dislike)}  # fmt: skip
