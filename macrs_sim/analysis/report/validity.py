"""Simulator validity statistics as a flat table (for CSV) and a markdown report section."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pandas as pd

from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.metrics.slots import DomainSlots
from macrs_sim.analysis.metrics.validity import (
    METHODS,
    OVERALL,
    QUANTILES,
    SLOTS,
    ValidityStats,
)
from macrs_sim.analysis.report.behaviour import (
    behaviour_columns,
    behaviour_definitions,
    behaviour_tables,
    summed,
    warnings,
)
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.textsafe import markdown_cell

NONE_MARK = "—"  # a rate with a zero denominator
MAX_AUDIT_ROWS = 50

_HEADERS = [
    "System",
    "Leak before",
    "Leak after",
    "Answer share",
    "Usable reasons",
    "Ungrounded share",
    "Grounding methods",
]
_QUANTILE_HEADERS = ["Min", "25%", "Median", "75%", "Max"]

_DEFINITIONS = (
    "*Leak before*: user turns after the opening whose first generation named the target "
    "(the guard then regenerated or redacted it). *Leak after*: user turns, other than ones "
    "accepting a recommendation of the target, whose kept text still names the target's "
    "title, rechecked here with the leak guard (expected 0). *Answer share*: turns with act "
    '"ask" whose reply gives a value for at least one slot the question is about ({slots}). '
    "*Usable reasons*: rejections (a turn recommending "
    "items the user did not accept) whose reply names {reasons} of the "
    "target. *Ungrounded share*: recommended titles (turn items and final lists) that matched "
    "no catalog item; *grounding methods* counts those titles by how they matched: exact, "
    "normalized (same words and numbers, a title part or a known alias), fuzzy (spelling "
    "repaired), ambiguous ({ambiguous}). Fuzzy and ambiguous acceptances are listed one by "
    "one. Fuzzy score quantiles use linear interpolation (numpy's default). Dialogues that "
    "ended in an error count for the turns they hold; {none} marks a rate with nothing to "
    "count."
)


def ambiguous_meaning(domain: Domain) -> str:
    """What an ambiguous match is under the domain's grounding (data/domain.py)."""
    if domain.grounding.matcher == "names":
        return (
            f"the name fits several {domain.plural} and nothing said tells them apart: none is "
            "taken"
        )
    return (
        f"several {domain.synonym_plural} share the title and no year decides: the one with "
        "the most interactions"
    )


_FILM_SLOTS = (
    'genre, era, theme, people; "open" when none is recognised; theme and open count a true '
    "attribute of the target, any genre or any era"
)
_FILM_REASONS = "a true genre, decade or keyword"


def _slot_words(domain: Domain) -> tuple[str, str]:
    """The slots' sentence and what a usable reason names, for the domain's slots."""
    if domain.layout == "films":
        return _FILM_SLOTS, _FILM_REASONS
    names = DomainSlots(domain).names[:-1]
    worded = next(((h.answers[0], h.label) for h in domain.hints if h.answers), None)
    words = f', a word such as "{worded[0]}" for the {worded[1]}' if worded else ""
    slots = (
        f'{", ".join(names)}; "open" when none is recognised; a slot counts a value some '
        f"{domain.noun} of the catalog has for it{words}, or no preference; open counts a "
        "true attribute of the target or any such value"
    )
    dated = ["decade"] if domain.words()["with_years"] else []  # titles with years: games
    return slots, f"a true {', '.join([*names, *dated])} or keyword"


def definitions(domain: Domain = MOVIES) -> str:
    """The section's definitions in the words of the run's domain (films: as ever)."""
    slots, reasons = _slot_words(domain)
    return _DEFINITIONS.format(
        ambiguous=ambiguous_meaning(domain), none=NONE_MARK, slots=slots, reasons=reasons
    )


def slot_names(stats: Sequence[ValidityStats]) -> list[str]:
    """The slots of the rows, in their order (films: SLOTS); rows of several domains' runs
    shown together give each of theirs."""
    names = dict.fromkeys(name for s in stats for name in s.slot_counts)
    return list(names) or list(SLOTS)


def validity_frame(stats: Sequence[ValidityStats]) -> pd.DataFrame:
    """One row per system, flat columns.

    Rate and quantile columns are float; a None there is pandas' missing value (NaN in the
    frame, an empty cell in a CSV), so the column type does not depend on the data.
    """
    rows: list[dict[str, object]] = []
    slots = slot_names(stats)
    for s in stats:
        row: dict[str, object] = {
            "system": s.system,
            "dialogues": s.dialogues,
            "user_turns": s.user_turns,
            "leaks_before": s.leaks_before,
            "leak_rate_before": s.leak_rate_before,
            "leaks_after": s.leaks_after,
            "leak_rate_after": s.leak_rate_after,
            "ask_turns": s.ask_turns,
            "answered": s.answered,
            "answer_share": s.answer_share,
            "rejections": s.rejections,
            "usable_reasons": s.usable_reasons,
            "usable_reason_share": s.usable_reason_share,
            "titles": s.titles,
            "ungrounded": s.ungrounded,
            "ungrounded_share": s.ungrounded_share,
            "ungrounded_examples": json.dumps(
                [list(e) for e in s.ungrounded_examples], ensure_ascii=False
            ),
            "grounding_audit": json.dumps(
                [[a.said, a.grounded, a.method, a.score, a.count] for a in s.audit],
                ensure_ascii=False,
            ),
        }
        row |= behaviour_columns(s.behaviour)
        row |= {f"method_{m}": s.methods.get(m, 0) for m in METHODS}
        row |= {f"fuzzy_{name}": (s.fuzzy_scores or {}).get(name) for name, _ in QUANTILES}
        for slot in slots:
            asked, answered = s.slot_counts.get(slot, (0, 0))
            key = slot.replace(" ", "_")
            row |= {f"slot_{key}_asked": asked, f"slot_{key}_answered": answered}
        rows.append(row)
    frame = pd.DataFrame(rows)
    floats = [
        c for c in frame.columns if c.startswith(("leak_rate_", "fuzzy_")) or c.endswith("_share")
    ]
    return frame.astype(dict.fromkeys(floats, "float64"))


def percent(count: int, total: int) -> str:
    """'12.5% (1/8)', or NONE_MARK when there is nothing to count."""
    return f"{count / total:.1%} ({count}/{total})" if total else NONE_MARK


def summary_cells(s: ValidityStats) -> list[str]:
    methods = ", ".join(f"{m} {s.methods.get(m, 0)}" for m in METHODS)
    return [
        s.system,
        percent(s.leaks_before, s.user_turns),
        percent(s.leaks_after, s.user_turns),
        percent(s.answered, s.ask_turns),
        percent(s.usable_reasons, s.rejections),
        percent(s.ungrounded, s.titles),
        methods,
    ]


def _examples(s: ValidityStats) -> str:
    # A model's title: shown as typed, never markup (macrs_sim/textsafe.py).
    found = ", ".join(f'"{markdown_cell(title)}" ×{n}' for title, n in s.ungrounded_examples)
    return f"- {s.system}: {found or 'none'}"


def _fuzzy_cells(s: ValidityStats) -> list[str]:
    scores = s.fuzzy_scores
    values = [f"{scores[n]:.3f}" if scores else NONE_MARK for n, _ in QUANTILES]
    return [s.system, str(s.methods.get("fuzzy", 0)), *values]


def _audit_lines(stats: Sequence[ValidityStats]) -> list[str]:
    """The OVERALL row's audit (every system's guesses), at most MAX_AUDIT_ROWS of it."""
    rows = next((s.audit for s in stats if s.system == OVERALL), ())
    lines = ["", "Fuzzy and ambiguous groundings, to check by hand (most frequent first):", ""]
    if not rows:
        return [*lines, "- none"]
    cells = [
        [markdown_cell(a.said), markdown_cell(a.grounded), a.method, f"{a.score:.3f}", str(a.count)]
        for a in rows[:MAX_AUDIT_ROWS]
    ]
    lines += markdown_table(["Said", "Grounded as", "Method", "Score", "Count"], cells)
    if len(rows) > MAX_AUDIT_ROWS:
        more = len(rows) - MAX_AUDIT_ROWS
        lines += ["", f"{more} more in validity.csv (column grounding_audit)."]
    return lines


def _slot_cells(s: ValidityStats, slots: Sequence[str]) -> list[str]:
    counts = [s.slot_counts.get(slot, (0, 0)) for slot in slots]
    return [s.system, *(percent(answered, asked) for asked, answered in counts)]


def behaviour_warnings(stats: Sequence[ValidityStats]) -> list[str]:
    """One-line warnings of a user (over every system) or systems that echo or refuse."""
    per_system = {s.system: s.behaviour for s in stats if s.system != OVERALL}
    overall = next((s.behaviour for s in stats if s.system == OVERALL), None)
    return warnings(per_system, overall or summed(list(per_system.values())))


def render_validity_markdown(stats: Sequence[ValidityStats], domain: Domain = MOVIES) -> str:
    """A '## Simulator validity' section: warnings, summary table, details, definitions
    (in `domain`'s words: the runs')."""
    lines = ["## Simulator validity", ""]
    if found := behaviour_warnings(stats):
        lines += [*(f"**{w}**" for w in found), ""]
    lines += markdown_table(_HEADERS, [summary_cells(s) for s in stats])
    lines += ["", "Ungrounded titles, most frequent first (at most 5):", ""]
    lines += [_examples(s) for s in stats]
    lines += ["", "Fuzzy grounding scores:", ""]
    headers = ["System", "Fuzzy matches", *_QUANTILE_HEADERS]
    lines += markdown_table(headers, [_fuzzy_cells(s) for s in stats])
    lines += _audit_lines(stats)
    lines += ["", "Answers by the slot asked about (answered/asked):", ""]
    slots = slot_names(stats)
    lines += markdown_table(["System", *slots], [_slot_cells(s, slots) for s in stats])
    lines += behaviour_tables([(s.system, s.behaviour) for s in stats])
    lines += ["", f"{definitions(domain)} {behaviour_definitions(domain)}"]
    return "\n".join(lines) + "\n"
