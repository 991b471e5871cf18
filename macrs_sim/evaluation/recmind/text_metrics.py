"""BLEU-2 and ROUGE-1/2/L of generated text against references, as P5 scores them.

RecMind reports its text tasks "following P5" (§4.1, App. B.1, Tab. 8), and its P5 rows are
P5's own numbers, so these are P5's definitions (its evaluation code: NMT's `compute_bleu`
and the seq2seq `rouge`), times 100 as the tables print them:

- tokens are the text split at whitespace, case and punctuation kept;
- BLEU-2 is corpus-level: clipped 1- and 2-gram matches summed over every pair, the
  geometric mean of the two precisions (0 when either is 0: no smoothing), times the brevity
  penalty exp(1 - r/c) when the generated text is shorter (c tokens) than the references
  (r);
- ROUGE-N is per pair over the sets of distinct n-grams, F1 of precision and recall,
  averaged over the pairs;
- ROUGE-L is per pair from the longest common subsequence: R = lcs/m, P = lcs/n and
  F = (1 + b^2) R P / (R + b^2 P) with b = P / R (P5's choice of b), averaged.

An empty text scores 0 on every pair it is in and still counts: failing to answer is never
better than a guess.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence


def tokens(text: str) -> list[str]:
    return text.split()


def ngrams(words: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def bleu(references: Sequence[str], generated: Sequence[str], max_order: int = 2) -> float:
    """Corpus BLEU-`max_order` (times 100) of `generated[i]` against `references[i]`."""
    matches, possible = [0] * max_order, [0] * max_order
    ref_len = gen_len = 0
    for ref_text, gen_text in zip(references, generated, strict=True):
        ref, gen = tokens(ref_text), tokens(gen_text)
        ref_len, gen_len = ref_len + len(ref), gen_len + len(gen)
        for n in range(1, max_order + 1):
            overlap = ngrams(gen, n) & ngrams(ref, n)
            matches[n - 1] += sum(overlap.values())
            possible[n - 1] += max(0, len(gen) - n + 1)
    precisions = [m / p if p > 0 else 0.0 for m, p in zip(matches, possible, strict=True)]
    if min(precisions) <= 0 or ref_len == 0:
        return 0.0
    geo_mean = math.exp(sum(math.log(p) for p in precisions) / max_order)
    ratio = gen_len / ref_len
    penalty = 1.0 if ratio > 1.0 else math.exp(1 - 1 / ratio)
    return 100 * geo_mean * penalty


def rouge_n(reference: str, generated: str, n: int) -> float:
    """F1 (0 to 1) over distinct n-grams."""
    ref, gen = set(ngrams(tokens(reference), n)), set(ngrams(tokens(generated), n))
    overlap = len(ref & gen)
    if overlap == 0:
        return 0.0
    precision, recall = overlap / len(gen), overlap / len(ref)
    return 2 * precision * recall / (precision + recall)


def lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """The longest common subsequence's length, one table row at a time."""
    row = [0] * (len(b) + 1)
    for x in a:
        diagonal = 0  # the previous row's value one column to the left
        for j, y in enumerate(b, start=1):
            above = row[j]
            row[j] = diagonal + 1 if x == y else max(above, row[j - 1])
            diagonal = above
    return row[-1]


def rouge_l(reference: str, generated: str) -> float:
    """P5's LCS F-measure (0 to 1), b = P / R."""
    ref, gen = tokens(reference), tokens(generated)
    lcs = lcs_length(gen, ref)
    if lcs == 0:
        return 0.0
    recall, precision = lcs / len(ref), lcs / len(gen)
    beta2 = (precision / recall) ** 2
    return (1 + beta2) * recall * precision / (recall + beta2 * precision)


def text_metrics(references: Sequence[str], generated: Sequence[str]) -> dict[str, float]:
    """BLEU-2, ROUGE-1, ROUGE-2, ROUGE-L times 100 (the paper's Tab. 8); NaN for no pair."""
    if len(references) != len(generated):
        raise ValueError("generated texts and references differ in length")
    names = ("BLEU-2", "ROUGE-1", "ROUGE-2", "ROUGE-L")
    n = len(references)
    if n == 0:
        return dict.fromkeys(names, math.nan)
    pairs = list(zip(references, generated, strict=True))
    return {
        "BLEU-2": bleu(references, generated, 2),
        "ROUGE-1": 100 * sum(rouge_n(r, g, 1) for r, g in pairs) / n,
        "ROUGE-2": 100 * sum(rouge_n(r, g, 2) for r, g in pairs) / n,
        "ROUGE-L": 100 * sum(rouge_l(r, g) for r, g in pairs) / n,
    }
