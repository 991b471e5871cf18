"""Sample rules of §4.4 and the popularity draw of §5.3.2, on hand-made sequences."""

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.samples import (
    build_samples,
    candidate_sample,
    draw_per_bucket,
    draw_random,
    eligible_samples,
    with_pre_target,
)
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item, Sample


def test_history_is_first_n_and_target_is_next(catalog: Catalog) -> None:
    cfg = DataConfig(history_len=4, min_history=1, filter_by_category=False)
    s = candidate_sample("u1", ["m1", "m2", "m3", "m4", "m5", "m6"], catalog, cfg)
    assert s is not None
    assert s.history == ("m1", "m2", "m3", "m4") and s.target_id == "m5"


def test_paper_defaults_truncate_to_20_and_target_the_21st() -> None:
    cat = Catalog([Item(item_id=f"i{n:02d}", title=f"T{n}", genres=("Drama",)) for n in range(30)])
    seq = [f"i{n:02d}" for n in range(30)]
    s = candidate_sample("u", seq, cat, DataConfig())
    assert s is not None and s.history == tuple(seq[:20]) and s.target_id == "i20"
    assert candidate_sample("u", seq[:20], cat, DataConfig()) is None  # no 21st item


def test_category_filter_and_minimum_history(catalog: Catalog) -> None:
    # Target m2 (Action, Sci-Fi): of m1 Heat (Crime), m4 Alien (Sci-Fi), m7 Heat (Action),
    # m3 Up (Animation) only m4 and m7 share a genre.
    items = ["m1", "m4", "m7", "m3", "m2"]
    s = candidate_sample("u1", items, catalog, DataConfig(history_len=4, min_history=2))
    assert s is not None and s.history == ("m4", "m7")
    # What a system may see is the window itself, unfiltered: the filter names the genre.
    assert s.pre_target == ("m1", "m4", "m7", "m3") == s.system_history
    assert candidate_sample("u1", items, catalog, DataConfig(history_len=4, min_history=3)) is None
    unfiltered = DataConfig(history_len=4, min_history=3, filter_by_category=False)
    s = candidate_sample("u1", items, catalog, unfiltered)
    assert s is not None and s.history == ("m1", "m4", "m7", "m3")


def _dataset(catalog: Catalog, prefixes: dict[str, list[str]], pop: dict[str, int]) -> Dataset:
    def cut(length: int) -> dict[str, list[str]]:
        return {u: s[:length] for u, s in prefixes.items() if len(s) >= length}

    return Dataset("hand", "hand|1", catalog, pop, len(prefixes), 0, cut)


def test_seeded_draw_is_reproducible_and_sized(catalog: Catalog) -> None:
    seqs = {f"u{u}": ["m1", "m4", "m7", "m2", "m5"] for u in range(6)}
    ds = _dataset(catalog, seqs, {"m2": 3})
    cfg = DataConfig(history_len=3, min_history=2, n_samples=3, seed=5)
    first = build_samples(ds, cfg)
    assert [s.sample_id for s in first] == [s.sample_id for s in build_samples(ds, cfg)]
    assert len(first) == 3 and len({s.user_id for s in first}) == 3
    # Only extra items past the 21st-equivalent are ignored: m5 never matters.
    assert all(s.history == ("m4", "m7") and s.target_id == "m2" for s in first)
    other = build_samples(ds, cfg.model_copy(update={"seed": 6}))
    assert {s.sample_id for s in other} != {s.sample_id for s in first}


def test_too_few_eligible_users_is_a_clear_error(catalog: Catalog) -> None:
    ds = _dataset(catalog, {"u1": ["m1", "m4", "m7", "m2"]}, {"m2": 1})
    with pytest.raises(DataError, match=r"data.n_samples = 2: only 1 users are eligible"):
        build_samples(ds, DataConfig(history_len=3, min_history=2, n_samples=2))


def _labelled(n: int, bucket: str) -> list[Sample]:
    return [
        Sample(
            sample_id=f"s-{bucket}-{i}",
            user_id=f"{bucket}{i}",
            history=("m1",),
            target_id="m2",
            bucket=bucket,
        )
        for i in range(n)
    ]


def test_draw_per_bucket_takes_per_bucket_from_each_in_bucket_order() -> None:
    cfg = DataConfig(popularity_buckets=(0.5, 1.0), per_bucket=2, sampling="popularity")
    pool = _labelled(3, "bottom 50%") + _labelled(5, "top 50%")
    drawn = draw_per_bucket(pool, cfg)
    assert [s.bucket for s in drawn] == ["top 50%", "top 50%", "bottom 50%", "bottom 50%"]
    assert drawn == draw_per_bucket(pool, cfg)
    with pytest.raises(
        DataError, match=r"per_bucket = 4: popularity bucket 'bottom 50%' has only 3"
    ):
        draw_per_bucket(pool, cfg.model_copy(update={"per_bucket": 4}))


def test_eligible_samples_carry_their_target_bucket(catalog: Catalog) -> None:
    cfg = DataConfig(history_len=2, min_history=1, filter_by_category=False)
    prefixes = {"u2": ["m1", "m3", "m5"], "u1": ["m1", "m4", "m2"]}
    got = eligible_samples(prefixes, catalog, cfg, {"m2": "top 10%"})
    assert [(s.user_id, s.target_id, s.bucket) for s in got] == [
        ("u1", "m2", "top 10%"),
        ("u2", "m5", None),
    ]
    assert draw_random(got, cfg.model_copy(update={"n_samples": 2})) != []


def test_popularity_sampling_end_to_end(catalog: Catalog) -> None:
    # m2 is the most popular of two rated items (top 50%), m5 the other (bottom 50%).
    seqs = {f"a{i}": ["m1", "m4", "m2"] for i in range(3)} | {
        f"b{i}": ["m1", "m3", "m5"] for i in range(2)
    }
    ds = _dataset(catalog, seqs, {"m2": 9, "m5": 1, "m1": 0})
    cfg = DataConfig(
        history_len=2,
        min_history=1,
        filter_by_category=False,
        sampling="popularity",
        popularity_buckets=(0.5, 1.0),
        per_bucket=2,
    )
    got = build_samples(ds, cfg)
    assert [(s.target_id, s.bucket) for s in got] == [("m2", "top 50%")] * 2 + [
        ("m5", "bottom 50%")
    ] * 2


def test_sample_sets_without_a_window_get_it_from_the_dataset(catalog: Catalog) -> None:
    cfg = DataConfig(history_len=4, min_history=2)
    ds = _dataset(catalog, {"u1": ["m1", "m4", "m7", "m3", "m2", "m5"]}, {})
    old = Sample(sample_id="s-u1", user_id="u1", history=("m4", "m7"), target_id="m2")
    assert old.pre_target is None and old.system_history == ("m4", "m7")
    (filled,) = with_pre_target([old], ds, cfg)
    assert filled.pre_target == ("m1", "m4", "m7", "m3")
    # A user whose record does not show the target next (edited, or not in the dataset),
    # or shows one the window already holds (a re-rating), is refused: rebuild the set.
    other = old.model_copy(update={"target_id": "m5"})
    stranger = old.model_copy(update={"user_id": "nobody"})
    for bad in (other, stranger):
        with pytest.raises(DataError, match="build the sample set again"):
            with_pre_target([bad], ds, cfg)
    rerated = _dataset(catalog, {"u1": ["m1", "m4", "m7", "m3", "m1"]}, {})
    with pytest.raises(DataError, match=r"target 'm1' \(the window already holds it\)"):
        with_pre_target([old.model_copy(update={"target_id": "m1"})], rerated, cfg)


def test_a_target_the_window_already_holds_is_not_eligible(catalog: Catalog) -> None:
    # A re-rating: Heat (m1) again as the 4th item would be a target the user already had.
    cfg = DataConfig(history_len=3, min_history=1, filter_by_category=False)
    assert candidate_sample("u1", ["m1", "m4", "m3", "m1", "m2"], catalog, cfg) is None
    s = candidate_sample("u1", ["m1", "m4", "m3", "m2", "m1"], catalog, cfg)
    assert s is not None and s.target_id == "m2"
