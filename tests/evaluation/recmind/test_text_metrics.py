"""BLEU-2 and ROUGE-1/2/L as P5 scores them, against values worked out by hand.

Pair A: reference "great smell and soft skin" (5 words), generated "great smell" (2).
Pair B: reference "works well" (2), generated "it works well well" (4).
"""

from __future__ import annotations

import math

import pytest

from macrs_sim.evaluation.recmind.text_metrics import (
    bleu,
    lcs_length,
    rouge_l,
    rouge_n,
    text_metrics,
)

A = ("great smell and soft skin", "great smell")
B = ("works well", "it works well well")


def test_bleu_2_of_one_pair_is_all_matches_times_the_brevity_penalty() -> None:
    # 1-grams 2/2, 2-grams 1/1: geometric mean 1; 2 words for 5: exp(1 - 5/2)
    assert bleu([A[0]], [A[1]]) == pytest.approx(100 * math.exp(-1.5))


def test_bleu_2_is_corpus_level_with_clipped_counts() -> None:
    # 1-grams: A 2 of 2, B "works" 1 + "well" clipped to 1 of 4 -> 4/6;
    # 2-grams: A 1 of 1, B "works well" 1 of 3 -> 2/4; 6 words for 7: exp(1 - 7/6)
    expected = 100 * math.sqrt(4 / 6 * 2 / 4) * math.exp(1 - 7 / 6)
    assert bleu([A[0], B[0]], [A[1], B[1]]) == pytest.approx(expected)
    assert expected == pytest.approx(48.8716, abs=1e-4)


def test_bleu_is_0_when_no_2_gram_matches_and_longer_text_has_no_penalty() -> None:
    assert bleu(["soft skin"], ["skin soft"]) == 0.0  # no smoothing
    # 1-grams 2/3, 2-grams 1/2, 3 words for 2: no penalty
    assert bleu(["soft skin"], ["soft skin now"]) == pytest.approx(100 * math.sqrt(2 / 3 * 1 / 2))


def test_rouge_n_is_f1_over_distinct_n_grams() -> None:
    # A: P 2/2, R 2/5 -> 2 * 0.4 / 1.4; B: {it, works, well} vs {works, well}: P 2/3, R 1
    assert rouge_n(*A, 1) == pytest.approx(2 * 0.4 / 1.4)
    assert rouge_n(*B, 1) == pytest.approx(0.8)
    # A: 1 of 4 reference bigrams, P 1: F 0.4; B: P 1/3, R 1 -> 0.5
    assert rouge_n(*A, 2) == pytest.approx(0.4)
    assert rouge_n(*B, 2) == pytest.approx(0.5)


def test_rouge_l_uses_p5s_beta_p_over_r() -> None:
    # A: lcs 2, R 0.4, P 1, b^2 = 6.25: 7.25 * 0.4 / (0.4 + 6.25) (plain F1 would be 0.571)
    assert rouge_l(*A) == pytest.approx(7.25 * 0.4 / 6.65)
    # B: lcs 2, R 1, P 0.5, b^2 = 0.25: 1.25 * 0.5 / 1.125
    assert rouge_l(*B) == pytest.approx(0.625 / 1.125)
    assert lcs_length(["a", "b", "c", "d"], ["b", "d", "a", "c"]) == 2


def test_case_and_punctuation_are_kept_as_p5_splits_at_whitespace() -> None:
    assert rouge_n("Great smell.", "great smell", 1) == 0.0
    assert rouge_l("Great", "great") == 0.0


def test_text_metrics_average_rouge_over_pairs_and_an_empty_text_scores_0() -> None:
    got = text_metrics([A[0], B[0]], [A[1], B[1]])
    assert got["BLEU-2"] == pytest.approx(48.8716, abs=1e-4)
    assert got["ROUGE-1"] == pytest.approx(100 * (2 * 0.4 / 1.4 + 0.8) / 2)
    assert got["ROUGE-2"] == pytest.approx(45.0)
    assert got["ROUGE-L"] == pytest.approx(100 * (7.25 * 0.4 / 6.65 + 0.625 / 1.125) / 2)
    # An empty answer counts: ROUGE halves, and BLEU's penalty sees 2 words for 7
    empty = text_metrics([A[0], B[0]], [A[1], ""])
    assert empty["ROUGE-1"] == pytest.approx(100 * (2 * 0.4 / 1.4) / 2)
    assert empty["BLEU-2"] == pytest.approx(100 * math.exp(1 - 7 / 2))
    assert text_metrics([], [])["BLEU-2"] != text_metrics([], [])["BLEU-2"]  # NaN
    with pytest.raises(ValueError, match="differ in length"):
        text_metrics(["a"], [])
