"""The chat session in the terminal (rich). Model text is printed as `Text`, never markup,
and without control codes (macrs_sim/textsafe.py): no escape sequence reaches the terminal."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console, RenderableType
from rich.padding import Padding
from rich.text import Text

from macrs_sim.interactive.explain import render_explain
from macrs_sim.interactive.session import EndReason
from macrs_sim.protocol import DialogueResult, Item, ItemRef, SystemTurn
from macrs_sim.textsafe import terminal_data, terminal_line, terminal_text

_ENDINGS: dict[EndReason, str] = {
    "accepted": "success: the system recommended your target",
    "max_turns": "no success within the turn limit: the system gave its final list",
    "quit": "session ended",
    "interrupted": "session interrupted",
    "error": "session ended by an error",
}


class ChatView:
    def __init__(self, console: Console, *, explain: bool = False) -> None:
        self.console = console
        self.explain = explain
        self.target: Item | None = None
        self.max_turns: int | None = None

    def welcome(
        self, system: str, kind: str, model: str, target: Item | None, max_turns: int
    ) -> None:
        self.target = target
        self.max_turns = max_turns if target is not None else None
        head = Text(f"Chatting with {system}", style="bold").append(f" ({kind}, {model} model)")
        self.console.print(head)
        if target is None:
            self.console.print("Unscored session: talk as long as you like.")
        else:
            self.console.print(
                Text("Scored session: your target is ")
                .append(terminal_line(target.display_title), style="bold")
                .append(f" (id {target.item_id}); at most {max_turns} turns.")
            )
            self.console.print("Describe what you want; don't name the title.", style="dim")
        self.console.print("Type /quit (or press Ctrl-D or Ctrl-C) to end.", style="dim")

    def loading(self, what: str) -> None:
        self.console.print(Text(what, style="dim"))

    def thinking(self, system: str) -> None:
        self.console.print(Text(f"{system} is thinking…", style="dim italic"))

    def system_turn(self, number: int, system: str, turn: SystemTurn) -> None:
        of = f"/{self.max_turns}" if self.max_turns is not None else ""
        act = terminal_line(turn.act)
        head = Text(f"{system}", style="bold magenta").append(f" · turn {number}{of} · {act}")
        self.console.print(head)
        self.console.print(_indent(Text(terminal_text(turn.text)), 2))
        for item in turn.items:
            self.console.print(_indent(self._item_line(item), 2))
        if self.explain:
            explain = render_explain(terminal_data(turn.explain), act)
            self.console.print(_indent(explain, 4))

    def target_found(self) -> None:
        self.console.print(
            "✓ That is your target. Say anything to close the session.", style="bold green"
        )

    def final_list(self, items: list[ItemRef]) -> None:
        self.console.print(Text(f"Final top-{len(items)} list:", style="bold"))
        for rank, item in enumerate(items, start=1):
            self.console.print(_indent(Text(f"{rank:>2}. ").append(self._item_line(item)), 2))

    def ended(self, reason: EndReason, result: DialogueResult | None) -> None:
        if reason == "interrupted":
            self.console.print()  # Ctrl-C at the prompt leaves the cursor on its line
        line = _ENDINGS[reason]
        if result is not None and result.error:
            line += f": {terminal_line(result.error)}"
        self.console.print(Text(line, style="bold"))

    def saved(self, run_dir: Path) -> None:
        self.console.print(Text(f"saved: {run_dir}"))
        self.console.print(Text(f"report: macrs-sim report {run_dir}", style="dim"))

    def nothing_saved(self) -> None:
        self.console.print("nothing to save: the system never answered", style="dim")

    def warn(self, line: str) -> None:
        self.console.print(Text(f"warning: {terminal_line(line)}", style="yellow"))

    def _item_line(self, item: ItemRef) -> Text:
        text = Text("↳ ").append(terminal_line(item.title), style="bold")
        if item.item_id is None:
            return text.append("  (not in the catalog)", style="dim")
        text.append(f"  = {terminal_line(item.item_id)} ({item.method})", style="dim")
        if self.target is not None and item.item_id == self.target.item_id:
            text.append("  ← your target", style="bold green")
        return text


def _indent(renderable: RenderableType, width: int) -> Padding:
    # expand=False: no padding to the terminal's width (no trailing blanks in transcripts).
    return Padding(renderable, (0, 0, 0, width), expand=False)
