"""Issue 38 §5: plausible user text the behaviour checks flagged, and what they still catch."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from macrs_sim.analysis.metrics import behaviour_text as bt
from macrs_sim.analysis.metrics.behaviour import simulator_ngrams

BENCH = Path(__file__).parents[2] / "benchmarks" / "bench_behaviour_checks.py"
SIX = (
    "genre: action", "actor: Arnold Schwarzenegger", "director: Chuck Russell",
    "feature: witness protection", "mood: tense", "setting: New York",
)  # fmt: skip
FOUR = ("genre: thriller", "mood: dark", "setting: Boston", "feature: heist")


def test_a_person_who_cannot_remember_is_no_refusal() -> None:
    assert not bt.is_refusal("I'm afraid I can't help you there, I don't remember who directed it.")
    assert not bt.is_refusal("I'm not able to provide the title, but it was a heist movie")
    assert not bt.is_refusal("I'm afraid I can't help with the plot, I only saw the trailer.")
    assert bt.is_refusal("I'm sorry, but I can't assist with that.")
    assert bt.is_refusal("I apologize, but I'm not able to provide recommendations.")
    assert bt.is_refusal("I'm afraid I can't help.")


def test_common_phrases_of_the_prompts_are_no_instruction_echo() -> None:
    grams = simulator_ngrams()
    assert not bt.copies_instructions("I'm not sure what kind of movie you are thinking of", grams)
    assert bt.copies_instructions(
        "Respond to the recommender's latest message. I like sci-fi.", grams
    )
    assert bt.copies_instructions(
        "Write your next message as the user, in one or two sentences.", grams
    )


def test_half_a_profile_or_a_negated_feature_is_no_dump() -> None:
    assert not bt.is_profile_dump("I'd love a tense action movie with Arnold Schwarzenegger.", SIX)
    assert not bt.is_profile_dump("A thriller, nothing too dark, maybe set in Boston?", FOUR)
    assert bt.features_stated("A thriller, nothing too dark, maybe set in Boston?", FOUR) == 2
    assert bt.is_profile_dump("A dark heist thriller set in Boston.", FOUR)
    assert bt.affirmed_words("I don't want horror, no. A drama!") == frozenset(
        {"i", "do", "drama", "a"}
    )


def test_an_answer_that_restates_the_question_is_no_echo() -> None:
    question = "Would you like a recommendation for a romantic comedy set in New York?"
    assert not bt.similar(
        "Yes, I would like a recommendation for a romantic comedy set in New York!", question
    )
    assert bt.similar(question, question)
    assert bt.similar(
        "Yes, would you like a recommendation for a romantic comedy set in New York?", question
    )


def test_the_benchmark_measures_false_positives_on_a_corpus(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_behaviour_checks", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    turns = [
        {"speaker": "recommender", "text": "Would you like a recommendation for a funny film?"},
        {"speaker": "seeker", "text": "Yes, I would like a recommendation for a funny film!"},
        {"speaker": "recommender", "text": "How about Heat?"},
        {"speaker": "seeker", "text": "I'm afraid I can't help."},  # a refusal, on purpose
    ]
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"id": "a", "turns": turns}) + "\n", encoding="utf-8")
    out = bench.corpus_false_positives(corpus)
    assert out["seeker_turns"] == 2
    assert (out["refusal"]["flagged"], out["refusal"]["fp_rate"]) == (1, 0.5)
    assert out["echo"]["flagged"] == 0
    assert out["profile_dump"]["turns"] == 0  # no sought item: no stand-in profile
