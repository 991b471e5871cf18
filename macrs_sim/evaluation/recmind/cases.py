"""The test cases of RecMind's offline tasks: whom to ask, what they saw, what is held out.

Each case is a leave-one-out test case (`data.splits.leave_one_out`): the user's last item
is the target, everything before it is the visible history. The target is never part of
the history a solver or a prompt sees. Users are sampled with a seeded generator; each
user's candidate list is drawn from a generator seeded by (seed, user), so a user's
candidates do not depend on which other users were sampled.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from macrs_sim.data.splits import Interactions, leave_one_out
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.recmind.reviews import Review


@dataclass(frozen=True)
class TaskCase:
    """One question's ground: the visible history (oldest first) and the held-out target."""

    user_id: str
    history: tuple[str, ...]
    history_ratings: tuple[float | None, ...]
    target: str
    target_rating: float | None
    # The target plus sampled negatives, in the order shown (empty for rating, explanation).
    candidates: tuple[str, ...] = ()
    # Review summarisation: the held-out interaction's review (its text is the question,
    # its summary the reference) and the visible history's reviews (few-shot examples).
    review: Review | None = None
    history_reviews: tuple[Review | None, ...] = ()


def sample_candidates(
    target: str, seen: set[str], item_ids: Sequence[str], n: int, rng: random.Random
) -> tuple[str, ...]:
    """`target` plus `n - 1` items outside `seen` (the user's every item), shuffled.

    Negatives are drawn uniformly without replacement from the unseen items in catalog
    order; the target's place in the list is random too (position bias must not help).
    """
    pool = [i for i in item_ids if i not in seen and i != target]
    if n - 1 > len(pool):
        raise ValueError(f"only {len(pool)} unseen items, {n - 1} negatives needed")
    picked = [target, *rng.sample(pool, n - 1)]
    rng.shuffle(picked)
    return tuple(picked)


def _ratings_of(
    ratings: Mapping[str, Sequence[float | None]] | None, user: str, length: int
) -> tuple[float | None, ...]:
    found = tuple(ratings.get(user, ())) if ratings is not None else ()
    return found if len(found) == length else (None,) * length


def _reviews_of(
    reviews: Mapping[str, Sequence[Review | None]] | None, user: str, length: int
) -> tuple[Review | None, ...]:
    found = tuple(reviews.get(user, ())) if reviews is not None else ()
    return found if len(found) == length else (None,) * length


def build_cases(
    data: Interactions,
    *,
    n_users: int,
    seed: int,
    n_candidates: int = 0,
    ratings: Mapping[str, Sequence[float | None]] | None = None,
    need_rating: bool = False,
    reviews: Mapping[str, Sequence[Review | None]] | None = None,
) -> list[TaskCase]:
    """Up to `n_users` leave-one-out test cases, sampled with `seed`, ordered by user id.

    `ratings` holds each user's ratings aligned with `data.sequences`. With `need_rating`,
    only users whose held-out interaction has a rating are eligible. `reviews` (aligned
    the same way) is for review summarisation: only users whose held-out review is usable
    (text, and a summary of the reviewer's own) are eligible. `n_candidates` > 0 gives each
    case a candidate list of that size.
    """
    ids = data.item_ids
    eligible = []
    for case in leave_one_out(data).test:
        seq = data.sequences[case.user_id]
        rated = _ratings_of(ratings, case.user_id, len(seq))
        said = _reviews_of(reviews, case.user_id, len(seq))
        if need_rating and rated[-1] is None:
            continue
        if reviews is not None and (said[-1] is None or not said[-1].usable):
            continue
        eligible.append((case.user_id, tuple(ids[i] for i in seq), rated, said))
    picked = sorted(random.Random(seed).sample(eligible, min(n_users, len(eligible))))
    cases = []
    for user, items, rated, said in picked:
        candidates: tuple[str, ...] = ()
        if n_candidates > 0:
            rng = random.Random(f"{seed}|{user}")
            try:
                candidates = sample_candidates(items[-1], set(items), ids, n_candidates, rng)
            except ValueError as err:
                raise ConfigError(
                    f"--candidates {n_candidates}: user {user!r} has {err}; "
                    "expected a smaller candidate list"
                ) from None
        review = said[-1] if reviews is not None else None
        cases.append(TaskCase(user, items[:-1], rated[:-1], items[-1], rated[-1], candidates,
                              review, said[:-1] if reviews is not None else ()))  # fmt: skip
    return cases
