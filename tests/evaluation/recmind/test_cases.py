"""Candidate lists and test cases: the target in, no seen item, seeded, nothing leaked."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from macrs_sim.data.splits import Interactions, load_interactions
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.recmind.cases import build_cases, sample_candidates
from macrs_sim.evaluation.recmind.ratings import load_ratings

IDS = tuple(f"i{n}" for n in range(12))


def test_candidates_hold_the_target_and_no_seen_item() -> None:
    seen = {"i0", "i1", "i2", "i5"}
    got = sample_candidates("i5", seen, IDS, 6, random.Random(3))
    assert len(got) == len(set(got)) == 6
    assert "i5" in got
    assert not (set(got) - {"i5"}) & seen


def test_candidates_are_seeded() -> None:
    a = sample_candidates("i5", {"i5"}, IDS, 6, random.Random("7|u1"))
    b = sample_candidates("i5", {"i5"}, IDS, 6, random.Random("7|u1"))
    c = sample_candidates("i5", {"i5"}, IDS, 6, random.Random("8|u1"))
    assert a == b and a != c


def test_the_whole_unseen_pool_can_be_drawn_but_no_more() -> None:
    got = sample_candidates("i0", {"i0", "i1"}, IDS, 11, random.Random(0))
    assert sorted(got) == sorted(set(IDS) - {"i1"})
    with pytest.raises(ValueError, match="only 10 unseen items, 11 negatives needed"):
        sample_candidates("i0", {"i0", "i1"}, IDS, 12, random.Random(0))


def _toy() -> Interactions:
    seqs = {"a": (0, 1, 2, 3), "b": (4, 5, 6), "c": (7, 8), "d": (9, 10, 11, 0, 1)}
    return Interactions("toy", "fp", IDS, seqs)


def test_cases_are_leave_one_out_sampled_and_seeded() -> None:
    data = _toy()
    every = build_cases(data, n_users=10, seed=0, n_candidates=4)
    assert [c.user_id for c in every] == ["a", "b", "d"]  # c has 2 items: no test case
    a = every[0]
    assert (a.history, a.target) == (("i0", "i1", "i2"), "i3")
    for case in every:
        user_items = {IDS[i] for i in data.sequences[case.user_id]}
        assert case.target in case.candidates and case.target not in case.history
        assert not (set(case.candidates) - {case.target}) & user_items
    two = build_cases(data, n_users=2, seed=5, n_candidates=4)
    assert two == build_cases(data, n_users=2, seed=5, n_candidates=4)
    assert len(two) == 2
    # a user's candidates depend on (seed, user), not on who else was sampled
    all_five = {c.user_id: c for c in build_cases(data, n_users=10, seed=5, n_candidates=4)}
    assert all(case == all_five[case.user_id] for case in two)


def test_too_long_a_candidate_list_is_one_clear_error() -> None:
    with pytest.raises(
        ConfigError,
        match=r"--candidates 10: user 'a' has only 8 unseen items, 9 negatives needed; expected a",
    ):
        build_cases(_toy(), n_users=10, seed=0, n_candidates=10)


def test_rating_cases_from_a_prepared_database(ml_db: Path) -> None:
    data = load_interactions(str(ml_db))
    ratings = load_ratings(data)
    assert (ratings.low, ratings.high, ratings.midpoint) == (0.5, 5.0, 2.75)
    cases = build_cases(data, n_users=5, seed=0, ratings=ratings.by_user, need_rating=True)
    assert [(c.user_id, c.target, c.target_rating) for c in cases] == [
        ("1", "4", 2.0),
        ("2", "6", 1.0),
    ]
    assert cases[0].history == ("1", "2", "3") and cases[0].history_ratings == (4.0, 5.0, 3.0)
    assert cases[1].candidates == ()


def test_the_demo_has_no_ratings() -> None:
    from macrs_sim.errors import DataError

    with pytest.raises(DataError, match="rating prediction needs ratings; dataset 'demo' has none"):
        load_ratings(load_interactions("demo"))
