"""Which turns show a side not playing its part, per dialogue, and their shares per system.

Measured from the stored records (`DialogueResult`, the sample's target profile); the tests
on one text are in behaviour_text. A check counts over the turns it applies to:

- user: every user turn, the opening included, except echo (only replies: the opening
  answers nobody) and repeat (the opening has nothing earlier to repeat); off-profile only
  counts where the system's turn asked about genre or era (another domain's: one of its
  attribute slots, metrics/slots.py), but applies to every reply;
- system: every system turn, except repeat (the first turn of a dialogue has nothing
  earlier to repeat).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache

from macrs_sim.analysis.metrics import behaviour_text as bt
from macrs_sim.analysis.metrics.slots import FilmChecks, TargetChecks
from macrs_sim.data.attributes import ItemAttributes
from macrs_sim.data.domain import BUILTIN_DOMAINS
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueResult
from macrs_sim.simulators.instructions import SIMULATOR_PROMPTS

USER_CHECKS = (
    "echo",
    "refusal",
    "repeat",
    "empty",
    "truncated",
    "instruction_echo",
    "profile_dump",
    "off_profile",
)
SYSTEM_CHECKS = ("echo", "refusal", "repeat", "empty", "truncated")
# Prompt files of the LLM user simulator's instructions.
SIMULATOR_PROMPT_NAMES = tuple(SIMULATOR_PROMPTS.values())
OPENING = 0  # the turn number of the user's opening


@cache
def simulator_ngrams() -> frozenset[tuple[str, ...]]:
    """The instruction n-grams of the package's simulator prompts, every section, in the
    words of every built-in domain (a run's users may copy whichever they were shown)."""
    libraries = [PromptLibrary(domain=domain) for domain in BUILTIN_DOMAINS]
    texts = [
        s for lib in libraries for n in SIMULATOR_PROMPT_NAMES for s in lib.get(n).sections.values()
    ]
    return bt.instruction_ngrams(texts)


@dataclass(frozen=True)
class TurnFlags:
    """The checks one turn failed, by name (empty: none)."""

    turn: int  # OPENING for the opening
    side: str  # "user" | "system"
    checks: tuple[str, ...]


def _user_flags(
    text: str,
    replied_to: str | None,
    earlier: list[str],
    profile: tuple[str, ...],
    target: TargetChecks | None,
    ended: bool = False,
) -> tuple[str, ...]:
    found = []
    if replied_to is not None and bt.similar(text, replied_to):
        found.append("echo")
    if bt.is_refusal(text):
        found.append("refusal")
    if any(bt.similar(text, e) for e in earlier):
        found.append("repeat")
    if not ended:  # "<END>" alone is a user leaving (its marker is not kept), not a blank
        found += ["empty"] if bt.is_empty(text) else ["truncated"] if bt.is_truncated(text) else []
    if bt.copies_instructions(text, simulator_ngrams()):
        found.append("instruction_echo")
    if profile and bt.is_profile_dump(text, profile):
        found.append("profile_dump")
    if replied_to is not None and target is not None and target.off_profile(replied_to, text):
        found.append("off_profile")
    return tuple(found)


def _system_flags(text: str, replied_to: str, earlier: list[str]) -> tuple[str, ...]:
    found = ["echo"] if bt.similar(text, replied_to) else []
    found += ["refusal"] if bt.is_refusal(text) else []
    found += ["repeat"] if any(bt.similar(text, e) for e in earlier) else []
    found += ["empty"] if bt.is_empty(text) else ["truncated"] if bt.is_truncated(text) else []
    return tuple(found)


def dialogue_flags(
    result: DialogueResult,
    profile: tuple[str, ...] = (),
    target: TargetChecks | ItemAttributes | None = None,
) -> list[TurnFlags]:
    """Every turn of the dialogue in order (opening, then system and user of each exchange).

    `target`: the slot checks of the dialogue's target (metrics/slots.py); a film's
    attributes stand for the paper's film checks."""
    if isinstance(target, ItemAttributes):
        target = FilmChecks(target)
    user_said = [result.opening.text]
    flags = [TurnFlags(OPENING, "user", _user_flags(result.opening.text, None, [], profile, None))]
    system_said: list[str] = []
    for ex in result.exchanges:
        sys_text, user_text = ex.system.text, ex.user.text
        flags.append(
            TurnFlags(ex.turn, "system", _system_flags(sys_text, user_said[-1], system_said))
        )
        system_said.append(sys_text)
        checks = _user_flags(user_text, sys_text, user_said, profile, target, ex.user.ended)
        flags.append(TurnFlags(ex.turn, "user", checks))
        user_said.append(user_text)
    return flags


@dataclass
class BehaviourTally:
    """Counts per side and check: (turns failing, turns the check applies to)."""

    hits: Counter[str] = field(default_factory=Counter)  # "user_echo" -> count
    turns: Counter[str] = field(default_factory=Counter)  # "user_echo" -> applicable turns

    def add(self, flags: list[TurnFlags]) -> None:
        turns, hits = self.turns, self.hits
        for f in flags:
            for key, check in _applicable(f.side, f.turn):
                turns[key] += 1
                if check in f.checks:
                    hits[key] += 1

    def merge(self, other: BehaviourTally) -> None:
        self.hits.update(other.hits)
        self.turns.update(other.turns)

    def freeze(self) -> dict[str, tuple[int, int]]:
        """'user_echo' -> (count, turns), every check of both sides, in column order."""
        names = [f"user_{c}" for c in USER_CHECKS] + [f"system_{c}" for c in SYSTEM_CHECKS]
        return {n: (self.hits[n], self.turns[n]) for n in names}


@cache
def _applicable(side: str, turn: int) -> tuple[tuple[str, str], ...]:
    """('user_echo', 'echo'), ...: the checks that count a turn of `side` numbered `turn`."""
    checks = USER_CHECKS if side == "user" else SYSTEM_CHECKS
    return tuple((f"{side}_{c}", c) for c in checks if _applies(side, turn, c))


def _applies(side: str, turn: int, check: str) -> bool:
    if check in ("echo", "off_profile"):
        return not (side == "user" and turn == OPENING)
    if check == "repeat":
        return turn > (OPENING if side == "user" else 1)
    return True


def behaviour_counts(
    results: list[DialogueResult],
    profiles: Mapping[str, tuple[str, ...]] | None = None,
) -> dict[str, tuple[int, int]]:
    """The counts over `results` (profiles by sample id; without them no profile dump)."""
    tally = BehaviourTally()
    for r in results:
        tally.add(dialogue_flags(r, (profiles or {}).get(r.sample_id, ())))
    return tally.freeze()
