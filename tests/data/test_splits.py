"""Splits: what a trained model may see, worked out by hand."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.splits import (
    EvalCase,
    campaign_split,
    from_pairs,
    leave_one_out,
    load_interactions,
)  # fmt: skip
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample

ITEMS = ("m0", "m1", "m2", "m3", "m4", "m5", "m6")


def data_of(seqs: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    rows = [(u, i) for u, items in seqs.items() for i in items]
    return from_pairs("toy", "toy|fp", ITEMS, rows)


def test_items_outside_the_catalog_are_skipped_and_order_kept() -> None:
    data = data_of({"a": ["m3", "nowhere", "m1", "m3"], "b": ["ghost"]})
    assert data.sequences == {"a": (3, 1, 3)}
    assert data.n_interactions == 3


def test_leave_one_out_last_item_tests_second_last_validates() -> None:
    split = leave_one_out(data_of({"a": ["m0", "m1", "m2", "m3"], "b": ["m4", "m5"]}))
    assert split.train == {"a": (0, 1), "b": (4, 5)}
    assert split.validation == (EvalCase("a", (0, 1), 2),)
    assert split.test == (EvalCase("a", (0, 1, 2), 3),)


def sample(user: str, target: str) -> Sample:
    return Sample(sample_id=f"s-{user}", user_id=user, history=("m0",), target_id=target)


def test_campaign_split_hides_target_and_later_items() -> None:
    seqs = {"a": ["m0", "m1", "m2", "m3", "m4", "m5"], "b": ["m6", "m2", "m1"], "c": ["m0", "m6"]}
    split = campaign_split(data_of(seqs), [sample("a", "m4"), sample("b", "m2")])
    # a: m4 and m5 hidden; the last visible (m3) validates. b: only m6 left. c: untouched.
    assert split.train == {"a": (0, 1, 2), "b": (6,), "c": (0, 6)}
    assert split.validation == (EvalCase("a", (0, 1, 2), 3),)
    assert split.test == ()
    seen_a = set(split.train["a"]) | {c.target for c in split.validation if c.user_id == "a"}
    assert not seen_a & {4, 5}
    assert 2 not in split.train["b"] and 1 not in split.train["b"]


def test_campaign_split_cuts_at_the_first_occurrence_of_a_repeated_target() -> None:
    split = campaign_split(data_of({"a": ["m1", "m2", "m1", "m3"]}), [sample("a", "m2")])
    assert split.train == {"a": (1,)}


def test_campaign_split_key_depends_on_the_targets() -> None:
    data = data_of({"a": ["m0", "m1", "m2", "m3"]})
    k1 = campaign_split(data, [sample("a", "m3")]).key
    k2 = campaign_split(data, [sample("a", "m2")]).key
    assert k1 != k2 and k1.startswith("campaign-")


def test_campaign_split_rejects_a_target_the_user_never_had() -> None:
    with pytest.raises(DataError, match=r"sample s-a: target 'm6' is not among user 'a'"):
        campaign_split(data_of({"a": ["m0", "m1"]}), [sample("a", "m6")])


def test_demo_interactions_match_the_demo_dataset() -> None:
    data = load_interactions("demo")
    demo = demo_dataset(DataConfig())
    assert data.fingerprint == demo.fingerprint and data.database is None
    assert data.n_interactions == demo.n_interactions
    assert len(data.sequences) == demo.n_users
    prefixes = demo.prefixes(21)
    user = sorted(prefixes)[0]
    assert [data.item_ids[i] for i in data.sequences[user][:21]] == prefixes[user]


def test_database_sequences_in_time_order_ties_in_file_order(tmp_path: Path) -> None:
    from macrs_sim.data.movielens import prepare_movielens

    movies = "movieId,title,genres\r\n" + "".join(
        f'{m},"Film {m}, The (1990)",Drama\r\n' for m in range(1, 6)
    )
    # User 1: timestamps out of file order, a tie (3 then 1 at t=200); CRLF line ends.
    ratings = "userId,movieId,rating,timestamp\r\n1,2,4,300\r\n1,3,4,200\r\n1,1,4,200\r\n"
    ratings += "2,5,3,10\r\n"
    src = tmp_path / "ml-latest-small.zip"
    with zipfile.ZipFile(src, "w") as z:
        z.writestr("ml-latest-small/movies.csv", movies)
        z.writestr("ml-latest-small/ratings.csv", ratings)
    db = tmp_path / "ml.sqlite"
    prepare_movielens(src, db)
    data = load_interactions(str(db))
    assert data.database == db
    named = {u: [data.item_ids[i] for i in s] for u, s in data.sequences.items()}
    # Time order 200, 200, 300; the tie keeps file order (movie 3 before 1).
    assert named == {"1": ["3", "1", "2"], "2": ["5"]}


def test_a_bad_database_path_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such database"):
        load_interactions(str(tmp_path / "missing.sqlite"))


def test_campaign_dataset_counts_popularity_without_targets_and_later_items() -> None:
    from macrs_sim.data.splits import campaign_dataset

    seqs = {"a": ["m0", "m1", "m2", "m3"], "b": ["m2", "m1"], "c": ["m2"]}
    data = data_of(seqs)
    full = {"m0": 1, "m1": 2, "m2": 3, "m3": 1, "m4": 0, "m5": 0, "m6": 0}
    dataset = demo_dataset(DataConfig())
    dataset = dataset.__class__(**{**dataset.__dict__, "popularity": full})
    seen = campaign_dataset(dataset, data, [sample("a", "m2"), sample("b", "m1")])
    # a hides m2 and m3 (target and later); b hides m1; c keeps m2.
    assert seen.popularity == {"m0": 1, "m1": 1, "m2": 2, "m3": 0, "m4": 0, "m5": 0, "m6": 0}
    assert dataset.popularity == full  # the original is untouched
    assert seen.fingerprint == dataset.fingerprint and seen.catalog is dataset.catalog


def test_tool_database_is_keyed_by_popularity_counts(tmp_path: Path) -> None:
    import dataclasses

    from macrs_sim.tools.database import tool_database

    dataset = demo_dataset(DataConfig())
    first = tool_database(dataset, tmp_path)
    item = next(iter(dataset.popularity))
    fewer = {**dataset.popularity, item: dataset.popularity[item] - 1}
    second = tool_database(dataclasses.replace(dataset, popularity=fewer), tmp_path)
    assert first != second and tool_database(dataset, tmp_path) == first


def test_the_deferred_system_view_hides_nothing_for_a_sample_foreign_to_the_dataset() -> None:
    """Read mid-dialogue (grounding a shared title), it must not fail a dialogue: a sample
    whose user or target is not in the dataset has nothing after its target to hide."""
    from macrs_sim.data.dataset import open_dataset
    from macrs_sim.data.splits import deferred_campaign_dataset, interactions_of

    cfg = DataConfig()
    dataset = open_dataset(cfg)
    some_item = next(iter(dataset.catalog)).item_id
    stranger = Sample(sample_id="s-x", user_id="nobody", history=(), target_id=some_item)
    view = deferred_campaign_dataset(dataset, cfg, lambda: [stranger])
    assert dict(view.popularity) == dict(dataset.popularity)
    with pytest.raises(DataError, match="is not among user 'nobody'"):
        campaign_split(interactions_of(dataset, cfg), [stranger])
