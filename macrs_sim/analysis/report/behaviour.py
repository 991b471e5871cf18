"""Who failed to play their part: columns, a markdown table, its definitions, one-line warnings."""

from __future__ import annotations

from collections.abc import Mapping

from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.metrics import behaviour_text as bt
from macrs_sim.analysis.metrics.behaviour import SYSTEM_CHECKS, USER_CHECKS
from macrs_sim.analysis.metrics.slots import DomainSlots
from macrs_sim.data.domain import MOVIES, Domain

Counts = Mapping[str, tuple[int, int]]  # 'user_echo' -> (turns failing, turns checked)
WARN_SHARE = 0.2  # more than this share of echoing or refusing turns draws a warning
README_SECTION = "see README 'When the simulated user is not a user'"
NONE_MARK = "—"

_USER_HEADERS = ["Echo", "Refusal", "Repeat", "Empty", "Truncated", "Instr. echo"]
_USER_HEADERS += ["Profile dump", "Off-profile"]
_SYSTEM_HEADERS = ["Echo", "Refusal", "Repeat", "Empty", "Truncated"]

_DEFINITIONS = (
    "*Echo*: a turn whose text repeats the other side's previous turn (the user's reply vs "
    "the system turn it answers; the system turn vs the user turn before it). *Repeat*: a "
    "turn that repeats one of the same side's earlier turns. Both mean: at least "
    f"{bt.MIN_WORDS} words each, and equal after normalising (lower case, punctuation "
    f"dropped) or with a normalised similarity (rapidfuzz ratio) of at least "
    f'{bt.SIMILARITY:.0f}/100; shorter turns ("No.") never count. *Refusal*: the model '
    "declines (\"I'm sorry, but I can't assist with that.\"; a fixed set of phrasings). "
    "*Empty*: nothing but white space. *Truncated*: at least "
    f"{bt.TRUNCATED_MIN_WORDS} words and no closing punctuation (a reply cut short). "
    "*Instr. echo*: a user turn that copies a run of "
    f"{bt.INSTRUCTION_NGRAM} words of the simulator's prompt. *Profile dump*: a user turn "
    f"stating at least {bt.DUMP_MIN} features of the target profile and at least "
    f"{bt.DUMP_SHARE:.0%} of them (the prompt asks for one or two at a time). *Off-profile*: "
    "{off_profile}. Each share counts over the turns the check applies to: user checks over every "
    "user turn with the opening, but echo and off-profile over replies and repeat over turns "
    "after the first of that side. Column names in validity.csv: user_echo_share, "
    "system_refusal_share, ... with the counts in user_echo and user_echo_turns."
)
_FILM_OFF_PROFILE = (
    "asked about genre or era, the user names genres (or a decade or year) and none of the target's"
)


def behaviour_definitions(domain: Domain = MOVIES) -> str:
    """The checks' definitions, off-profile in the terms of the domain's slots."""
    if domain.layout == "films":
        return _DEFINITIONS.replace("{off_profile}", _FILM_OFF_PROFILE)
    said = (
        f"asked about its {slots_or(domain)}, the user names values of it that some "
        f"{domain.noun} of the catalog has and none of the target's"
    )
    return _DEFINITIONS.replace("{off_profile}", said)


def slots_or(domain: Domain) -> str:
    """The domain's attribute slots as a list ending in "or": "category, brand or price"."""
    return " or ".join(", ".join(DomainSlots(domain).names[:-1]).rsplit(", ", 1))


def off_profile_title(domain: Domain) -> str:
    """The viewer's off-profile badge title for a run of another domain than films (the
    viewer's own says "a genre or era the target does not have")."""
    return f"off-profile: a {slots_or(domain)} the target does not have"


DEFINITIONS = behaviour_definitions()  # films'


def behaviour_columns(counts: Counts) -> dict[str, object]:
    """user_echo, user_echo_turns, user_echo_share, ... (share None with nothing checked)."""
    row: dict[str, object] = {}
    for name, (hits, turns) in counts.items():
        row |= {
            name: hits,
            f"{name}_turns": turns,
            f"{name}_share": hits / turns if turns else None,
        }
    return row


def _pct(counts: Counts, name: str) -> str:
    hits, turns = counts.get(name, (0, 0))
    return f"{hits / turns:.0%} ({hits}/{turns})" if turns else NONE_MARK


def behaviour_tables(rows: list[tuple[str, Counts]]) -> list[str]:
    """Two markdown tables: the simulated user's turns, the systems' replies."""
    user = [[name, *(_pct(c, f"user_{k}") for k in USER_CHECKS)] for name, c in rows]
    system = [[name, *(_pct(c, f"system_{k}") for k in SYSTEM_CHECKS)] for name, c in rows]
    lines = ["", "Did each side play its part? The simulated user's turns:", ""]
    lines += markdown_table(["System", *_USER_HEADERS], user)
    lines += ["", "The systems' own replies:", ""]
    lines += markdown_table(["System", *_SYSTEM_HEADERS], system)
    return lines


def _either(counts: Counts, side: str) -> tuple[int, int, str] | None:
    """(count, turns, what) of the worse of echo and refusal when over WARN_SHARE."""
    options = [
        (*counts.get(f"{side}_echo", (0, 0)), "copied the other side's text"),
        (*counts.get(f"{side}_refusal", (0, 0)), "refused to answer"),
    ]
    over = [o for o in options if o[1] and o[0] / o[1] > WARN_SHARE]
    return max(over, key=lambda o: o[0] / o[1]) if over else None


def user_warning(counts: Counts) -> str | None:
    """ONE line when the simulated user echoes or refuses in more than WARN_SHARE of turns."""
    worst = _either(counts, "user")
    if worst is None:
        return None
    hits, turns, what = worst
    what = what.replace("the other side's", "the system's")
    return (
        f"warning: the simulated user {what} in {hits} of {turns} turns ({hits / turns:.0%}): "
        f"the model cannot play a user; results measure nothing ({README_SECTION})"
    )


def system_warning(per_system: Mapping[str, Counts]) -> str | None:
    """ONE line naming the systems whose replies echo or refuse in more than WARN_SHARE."""
    failed = []
    for name, counts in per_system.items():
        worst = _either(counts, "system")
        if worst is not None:
            hits, turns, what = worst
            what = what.replace("the other side's", "the user's")
            failed.append(f"{name} {what} in {hits} of {turns} turns")
    if not failed:
        return None
    return (
        "warning: systems failed to reply as recommenders: "
        + "; ".join(failed)
        + f" (the model cannot play the system; {README_SECTION})"
    )


def summed(rows: list[Counts]) -> dict[str, tuple[int, int]]:
    """The counts of several rows added up (systems of several runs, no OVERALL row)."""
    total: dict[str, tuple[int, int]] = {}
    for counts in rows:
        for name, (hits, turns) in counts.items():
            h, t = total.get(name, (0, 0))
            total[name] = (h + hits, t + turns)
    return total


def warnings(per_system: Mapping[str, Counts], overall: Counts) -> list[str]:
    """The user's line, then the systems' line, each only when it applies."""
    return [w for w in (user_warning(overall), system_warning(per_system)) if w]
