"""User profile memory: like / dislike / expect, for this dialogue and from the user's history."""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.agents.interecagent.schemas import ProfileUpdate


class ProfileMemory:
    """Short-term: what the user said in this dialogue. Long-term: the items of their history.

    Entries are free text (titles or attributes) as the planner wrote them; the ranking tool
    resolves the ones that are items.
    """

    def __init__(self, history: Sequence[str] = ()) -> None:
        self.long_term_likes: tuple[str, ...] = tuple(history)
        self.like: list[str] = []
        self.dislike: list[str] = []
        self.expect: list[str] = []
        # Items this system already showed in the dialogue: not shown again.
        self.shown: list[str] = []

    def update(self, update: ProfileUpdate) -> None:
        for field, values in (
            (self.like, update.like), (self.dislike, update.dislike), (self.expect, update.expect)
        ):  # fmt: skip
            for value in values:
                text = value.strip()
                if text and text not in field:
                    field.append(text)

    def render(self) -> str:
        def part(values: Sequence[str]) -> str:
            return "; ".join(values) if values else "(none)"

        return (
            f"like: {part(self.like)}\ndislike: {part(self.dislike)}\n"
            f"expect: {part(self.expect)}\nhistory: {len(self.long_term_likes)} items"
        )

    def dump(self) -> dict[str, list[str]]:
        return {"like": list(self.like), "dislike": list(self.dislike),
                "expect": list(self.expect), "shown": list(self.shown)}  # fmt: skip
