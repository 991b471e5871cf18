"""Simulator validity statistics against numbers worked out by hand.

Targets (tests/conftest.py): sample "s-u1" -> m2 "The Matrix" (1999, Action/Sci-Fi, profile
"virtual reality", "martial arts"); sample "s2" (made here) -> m8 "The Godfather" (1972,
Crime/Drama, keywords "mafia family", "succession").
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from macrs_sim.analysis.metrics.validity import ValidityStats, quantile, validity_stats
from macrs_sim.analysis.report.validity import render_validity_markdown, validity_frame
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.protocol import (
    DialogueResult,
    DialogueStatus,
    Exchange,
    ItemRef,
    Sample,
    SystemTurn,
    UserTurn,
)

GODFATHER = Sample(sample_id="s2", user_id="u2", history=("m1",), target_id="m8")


def _none(title: str) -> ItemRef:
    return ItemRef(title=title)


def _ref(title: str, item_id: str, score: float, method: str) -> ItemRef:
    return ItemRef.model_validate(
        {"title": title, "item_id": item_id, "score": score, "method": method}
    )


def _ex(
    turn: int, act: str, said: str, reply: str, items: tuple[ItemRef, ...] = (), **user: object
) -> Exchange:
    return Exchange(
        turn=turn,
        system=SystemTurn(act=act, text=said, items=items),
        user=UserTurn.model_validate({"text": reply, **user}),
    )


def _dlg(
    dialogue_id: str,
    system: str,
    sample: Sample,
    status: DialogueStatus,
    exchanges: tuple[Exchange, ...] = (),
    final_list: tuple[ItemRef, ...] = (),
) -> DialogueResult:
    return DialogueResult(
        dialogue_id=dialogue_id,
        system=system,
        sample_id=sample.sample_id,
        target_id=sample.target_id,
        status=status,
        max_turns=5,
        success_turn=len(exchanges) if status == "success" else None,
        opening=UserTurn(text="I want something good."),
        exchanges=exchanges,
        final_list=final_list,
        error="boom" if status == "error" else None,
    )


def _results(matrix: Sample) -> list[DialogueResult]:
    aliens = _ref("Aliens", "m4", 0.890625, "fuzzy")
    a1 = _dlg(
        "a1",
        "macrs",
        matrix,
        "failure",
        (
            _ex(1, "ask", "What genre do you enjoy?", "Action, mostly.", leak_retries=1),
            _ex(
                2,
                "ask",
                "Do you prefer older or newer films?",
                "I don't mind, I just loved that movie.",
                redacted=True,
            ),
            _ex(
                3,
                "recommend",
                "Try Heat or Blade Runer.",
                "No, I want something about virtual reality.",
                (_ref("Heat", "m1", 1.0, "exact"), _none("Blade Runer")),
            ),
            _ex(4, "ask", "What is the story about?", "Martial arts, set in the nineties."),
            # The guard missed this one: no retry, no redaction, the title is still there.
            _ex(
                5,
                "recommend",
                "How about Blade Runer or Aliens?",
                "No. I want The Matrix, honestly.",
                (_none("Blade Runer"), aliens),
            ),
        ),
        (
            _none("Blade Runer"),
            _ref("Heat", "m1", 1.0, "exact"),
            _ref("the matrix", "m2", 1.0, "normalized"),
            _none("Gattaca"),
        ),
    )
    b1 = _dlg(
        "b1",
        "chatgpt",
        matrix,
        "success",
        (
            _ex(1, "ask", "What kind of movie, and from which decade?", "Sci-fi, I think."),
            _ex(
                2,
                "recommend",
                "Maybe Gattaca, Brazil or Tron?",
                "None of those. Something like that movie but with action.",
                (_none("Gattaca"), _none("Brazil"), _none("Tron")),
                leak_retries=2,
                redacted=True,
            ),
            # Accepting the target by name is no leak: the system named it first.
            _ex(
                3,
                "recommend",
                "Then The Matrx!",
                "Yes, The Matrix is the one!",
                (_ref("The Matrx", "m2", 0.9375, "fuzzy"),),
                accepted=True,
            ),
        ),
        (
            _ref("Aliens", "m4", 0.96875, "fuzzy"),
            _ref("Toy Storry", "m5", 0.90625, "fuzzy"),
            _ref("Amelle", "m6", 0.890625, "fuzzy"),
            _none("Solaris"),
            _none("Zardoz"),
            _none("Blade Runer"),
        ),
    )
    a2 = _dlg(
        "a2",
        "macrs",
        GODFATHER,
        "error",
        (
            _ex(1, "chat", "Hi there!", "Hello."),
            _ex(2, "ask", "Any favourite actors or directors?", "Robert De Niro, maybe."),
            _ex(3, "ask", "Tell me more?", "No."),
            _ex(4, "ask", "Anything else?", "Crime stories from the seventies."),
        ),
    )
    return [a1, b1, a2]  # interleaved: rows follow each system's first dialogue


@pytest.fixture
def stats(catalog: Catalog, sample: Sample) -> list[ValidityStats]:
    samples = {sample.sample_id: sample, GODFATHER.sample_id: GODFATHER}
    return validity_stats(_results(sample), samples, catalog)


def test_rows_follow_first_appearance_then_all(stats: list[ValidityStats]) -> None:
    assert [s.system for s in stats] == ["macrs", "chatgpt", "all"]
    assert [s.dialogues for s in stats] == [2, 1, 3]


def test_leaks_before_and_after_the_guard(stats: list[ValidityStats]) -> None:
    # macrs: a1 t1 (retries) and t2 (redacted) before; a1 t5 slipped through the guard.
    # chatgpt: b1 t2 (retries + redacted) before; b1 t3 names the target but accepts it.
    assert [(s.user_turns, s.leaks_before, s.leaks_after) for s in stats] == [
        (9, 2, 1),
        (3, 1, 0),
        (12, 3, 1),
    ]
    macrs = stats[0]
    assert macrs.leak_rate_before == 2 / 9
    assert macrs.leak_rate_after == 1 / 9
    assert stats[1].leak_rate_after == 0.0


def test_answer_share_and_slots(stats: list[ValidityStats]) -> None:
    macrs, chatgpt, overall = stats
    # a1: genre yes, era no, theme yes; a2: people yes, open no ("No."), open yes (crime).
    assert (macrs.ask_turns, macrs.answered, macrs.answer_share) == (6, 4, 4 / 6)
    assert macrs.slot_counts == {
        "genre": (1, 1),
        "era": (1, 0),
        "theme": (1, 1),
        "people": (1, 1),
        "open": (2, 1),
    }
    # b1 t1 asks genre and era; "Sci-fi" answers the genre only, which answers the turn.
    assert (chatgpt.ask_turns, chatgpt.answered, chatgpt.answer_share) == (1, 1, 1.0)
    assert chatgpt.slot_counts["genre"] == (1, 1)
    assert chatgpt.slot_counts["era"] == (1, 0)
    assert chatgpt.slot_counts["theme"] == (0, 0)
    assert (overall.ask_turns, overall.answered) == (7, 5)
    assert overall.slot_counts["genre"] == (2, 2)
    assert overall.slot_counts["era"] == (2, 0)


def test_usable_reasons(stats: list[ValidityStats]) -> None:
    # a1 t3 names "virtual reality" (usable); a1 t5 names nothing true; b1 t2 names "action".
    assert [(s.rejections, s.usable_reasons) for s in stats] == [(2, 1), (1, 1), (3, 2)]
    assert stats[0].usable_reason_share == 0.5


def test_ungrounded_titles_and_examples(stats: list[ValidityStats]) -> None:
    macrs, chatgpt, overall = stats
    assert (macrs.titles, macrs.ungrounded, macrs.ungrounded_share) == (8, 4, 0.5)
    assert macrs.ungrounded_examples == (("Blade Runer", 3), ("Gattaca", 1))
    assert (chatgpt.titles, chatgpt.ungrounded) == (10, 6)
    # All tied at 1: alphabetical, five at most (Zardoz is left out).
    assert chatgpt.ungrounded_examples == (
        ("Blade Runer", 1),
        ("Brazil", 1),
        ("Gattaca", 1),
        ("Solaris", 1),
        ("Tron", 1),
    )
    assert (overall.titles, overall.ungrounded) == (18, 10)
    assert overall.ungrounded_examples == (
        ("Blade Runer", 4),
        ("Gattaca", 2),
        ("Brazil", 1),
        ("Solaris", 1),
        ("Tron", 1),
    )


def test_grounding_methods_and_fuzzy_quantiles(stats: list[ValidityStats]) -> None:
    macrs, chatgpt, overall = stats
    assert macrs.methods == {"exact": 2, "normalized": 1, "fuzzy": 1, "ambiguous": 0, "none": 4}
    assert chatgpt.methods == {"exact": 0, "normalized": 0, "fuzzy": 4, "ambiguous": 0, "none": 6}
    assert overall.methods == {"exact": 2, "normalized": 1, "fuzzy": 5, "ambiguous": 0, "none": 10}
    # One score: every quantile is that score.
    assert macrs.fuzzy_scores == dict.fromkeys(("min", "q25", "median", "q75", "max"), 0.890625)
    # Sorted 0.890625, 0.90625, 0.9375, 0.96875: positions 0.75, 1.5, 2.25 interpolate.
    assert chatgpt.fuzzy_scores == {
        "min": 0.890625,
        "q25": 0.90234375,
        "median": 0.921875,
        "q75": 0.9453125,
        "max": 0.96875,
    }
    # Five scores, positions 1, 2, 3 land on data points.
    assert overall.fuzzy_scores == {
        "min": 0.890625,
        "q25": 0.890625,
        "median": 0.90625,
        "q75": 0.9375,
        "max": 0.96875,
    }


def test_quantile_matches_numpy_linear() -> None:
    rng = random.Random(7)
    for n in (1, 2, 3, 10):
        data = sorted(rng.random() for _ in range(n))
        for q in (0.0, 0.25, 0.5, 0.75, 1.0):
            assert quantile(data, q) == pytest.approx(float(np.percentile(data, q * 100)))


def test_markdown_section(stats: list[ValidityStats]) -> None:
    text = render_validity_markdown(stats)
    lines = text.splitlines()
    assert lines[0] == "## Simulator validity"
    assert lines[2] == (
        "| System | Leak before | Leak after | Answer share | Usable reasons "
        "| Ungrounded share | Grounding methods |"
    )
    assert (
        "| macrs | 22.2% (2/9) | 11.1% (1/9) | 66.7% (4/6) | 50.0% (1/2) | 50.0% (4/8) "
        "| exact 2, normalized 1, fuzzy 1, ambiguous 0, none 4 |"
    ) in lines
    assert (
        "| chatgpt | 33.3% (1/3) | 0.0% (0/3) | 100.0% (1/1) | 100.0% (1/1) | 60.0% (6/10) "
        "| exact 0, normalized 0, fuzzy 4, ambiguous 0, none 6 |"
    ) in lines
    assert '- macrs: "Blade Runer" ×3, "Gattaca" ×1' in lines
    assert '- all: "Blade Runer" ×4, "Gattaca" ×2, "Brazil" ×1, "Solaris" ×1, "Tron" ×1' in lines
    assert "| chatgpt | 4 | 0.891 | 0.902 | 0.922 | 0.945 | 0.969 |" in lines
    assert (
        "| macrs | 100.0% (1/1) | 0.0% (0/1) | 100.0% (1/1) | 100.0% (1/1) | 50.0% (1/2) |" in lines
    )
    assert "| chatgpt | 100.0% (1/1) | 0.0% (0/1) | — | — | — |" in lines
    assert "linear interpolation" in lines[-1]


def test_frame(stats: list[ValidityStats]) -> None:
    frame = validity_frame(stats)
    assert list(frame["system"]) == ["macrs", "chatgpt", "all"]
    macrs = frame.iloc[0]
    assert macrs["leaks_before"] == 2 and macrs["leak_rate_before"] == 2 / 9
    assert macrs["method_none"] == 4 and macrs["fuzzy_median"] == 0.890625
    assert macrs["slot_open_asked"] == 2 and macrs["slot_open_answered"] == 1
    assert macrs["ungrounded_examples"] == '[["Blade Runer", 3], ["Gattaca", 1]]'
    # chatgpt asked no theme question: counts 0, and its share is the report's business.
    assert frame.iloc[1]["slot_theme_asked"] == 0


def test_zero_denominators_are_none_and_render_a_dash(catalog: Catalog, sample: Sample) -> None:
    quiet = _dlg("q1", "quiet", sample, "error")  # failed before any turn
    rows = validity_stats([quiet], {sample.sample_id: sample}, catalog)
    assert [s.system for s in rows] == ["quiet", "all"]
    row = rows[0]
    rates = [
        row.leak_rate_before,
        row.leak_rate_after,
        row.answer_share,
        row.usable_reason_share,
        row.ungrounded_share,
    ]
    assert rates == [None] * 5
    assert row.fuzzy_scores is None
    lines = render_validity_markdown(rows).splitlines()
    assert (
        "| quiet | — | — | — | — | — | exact 0, normalized 0, fuzzy 0, ambiguous 0, none 0 |"
    ) in lines
    assert "| quiet | 0 | — | — | — | — | — |" in lines
    assert "- quiet: none" in lines
    audit_at = lines.index(
        "Fuzzy and ambiguous groundings, to check by hand (most frequent first):"
    )
    assert lines[audit_at + 2] == "- none"
    frame = validity_frame(rows)
    assert frame["answer_share"].dtype == "float64"
    assert math.isnan(frame.iloc[0]["answer_share"])
    assert math.isnan(frame.iloc[0]["fuzzy_median"])
    assert frame.to_csv(index=False).splitlines()[1].startswith("quiet,1,0,0,,0,,0,0,,")


def test_no_results_gives_an_empty_overall_row(catalog: Catalog) -> None:
    (overall,) = validity_stats([], {}, catalog)
    assert (overall.system, overall.dialogues, overall.leak_rate_after) == ("all", 0, None)


def test_unknown_sample_or_target_is_a_data_error(catalog: Catalog, sample: Sample) -> None:
    result = _dlg("d", "macrs", sample, "failure")
    with pytest.raises(DataError, match="sample 's-u1' not found"):
        validity_stats([result], {}, catalog)
    stray = result.model_copy(update={"target_id": "nope"})
    with pytest.raises(DataError, match="target 'nope' is not in the catalog"):
        validity_stats([stray], {sample.sample_id: sample}, catalog)


def test_fuzzy_and_ambiguous_acceptances_are_listed_for_audit(
    catalog: Catalog, sample: Sample
) -> None:
    heat = _ref("Heat", "m1", 1.0, "ambiguous")  # m1 "Heat (1995)" of two films called Heat
    matrx = _ref("The Matrx ", "m2", 0.9375, "fuzzy")  # trailing space: counted as "The Matrx"
    d1 = _dlg(
        "d1",
        "macrs",
        sample,
        "failure",
        (_ex(1, "recommend", "Heat?", "No.", (heat, _ref("Up", "m3", 1.0, "exact"))),),
        final_list=(matrx, heat, _ref("Aliens", "m4", 0.9091, "fuzzy")),
    )
    d2 = _dlg(
        "d2", "chatgpt", sample, "failure", final_list=(_ref("The Matrx", "m2", 0.9375, "fuzzy"),)
    )
    macrs, chatgpt, overall = validity_stats([d1, d2], {sample.sample_id: sample}, catalog)
    assert macrs.methods["ambiguous"] == 2 and macrs.methods["fuzzy"] == 2
    assert [(a.said, a.grounded, a.method, a.score, a.count) for a in overall.audit] == [
        ("Heat", "Heat (1995)", "ambiguous", 1.0, 2),
        ("The Matrx", "The Matrix (1999)", "fuzzy", 0.9375, 2),
        ("Aliens", "Alien (1979)", "fuzzy", 0.9091, 1),
    ]
    assert [a.count for a in chatgpt.audit] == [1]
    lines = render_validity_markdown([macrs, chatgpt, overall]).splitlines()
    at = lines.index("Fuzzy and ambiguous groundings, to check by hand (most frequent first):")
    assert lines[at + 2 : at + 7] == [
        "| Said | Grounded as | Method | Score | Count |",
        "| --- | ---: | ---: | ---: | ---: |",
        "| Heat | Heat (1995) | ambiguous | 1.000 | 2 |",
        "| The Matrx | The Matrix (1999) | fuzzy | 0.938 | 2 |",
        "| Aliens | Alien (1979) | fuzzy | 0.909 | 1 |",
    ]
    frame = validity_frame([macrs, chatgpt, overall])
    assert (
        frame.iloc[1]["grounding_audit"]
        == '[["The Matrx", "The Matrix (1999)", "fuzzy", 0.9375, 1]]'
    )


def test_the_audit_table_is_capped_with_a_pointer_to_the_csv(
    catalog: Catalog, sample: Sample
) -> None:
    refs = tuple(_ref(f"Matrx {n:02d}", "m2", 0.9, "fuzzy") for n in range(53))
    dlg = _dlg("d", "macrs", sample, "failure", final_list=refs)
    stats = validity_stats([dlg], {sample.sample_id: sample}, catalog)
    lines = render_validity_markdown(stats).splitlines()
    assert "| Matrx 49 | The Matrix (1999) | fuzzy | 0.900 | 1 |" in lines
    assert "| Matrx 50 | The Matrix (1999) | fuzzy | 0.900 | 1 |" not in lines
    assert "3 more in validity.csv (column grounding_audit)." in lines
