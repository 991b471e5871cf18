"""`data.target = "last"`: InteRecAgent's sampling (§4.1: "leaving out the last item in
their history as the target"), on hand-made sequences and on the demo."""

from __future__ import annotations

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset, demo_dataset
from macrs_sim.data.samples import build_samples, candidate_sample, with_pre_target
from macrs_sim.data.splits import (
    campaign_dataset,
    deferred_campaign_dataset,
    interactions_of,
)
from macrs_sim.errors import DataError

LAST = DataConfig(target="last", history_len=3, min_history=1, filter_by_category=False)


def test_target_is_the_last_item_and_history_the_ones_before_it(catalog: Catalog) -> None:
    s = candidate_sample("u1", ["m1", "m3", "m4", "m5", "m7", "m2"], catalog, LAST)
    assert s is not None
    assert (s.target_id, s.history, s.pre_target) == ("m2", ("m4", "m5", "m7"),
                                                      ("m4", "m5", "m7"))  # fmt: skip
    # The MACRS rule on the same items: the first 3, then the 4th.
    first = candidate_sample("u1", ["m1", "m3", "m4", "m5", "m7", "m2"], catalog,
                             LAST.model_copy(update={"target": "after_history"}))  # fmt: skip
    assert first is not None and (first.target_id, first.history) == ("m5", ("m1", "m3", "m4"))


def test_short_users_keep_what_they_have_and_rerated_targets_are_not_held_out(
    catalog: Catalog,
) -> None:
    s = candidate_sample("u", ["m4", "m2"], catalog, LAST)  # fewer than history_len before
    assert s is not None and (s.history, s.target_id) == (("m4",), "m2")
    assert candidate_sample("u", ["m2"], catalog, LAST) is None  # nothing before the target
    assert candidate_sample("u", ["m2", "m4", "m2"], catalog, LAST) is None  # a re-rating
    # m1 (Crime) and m3 (Animation) share no genre with m2 (Action, Sci-Fi): filtered out.
    filtered = LAST.model_copy(update={"filter_by_category": True, "min_history": 2})
    assert candidate_sample("u", ["m1", "m4", "m3", "m2"], catalog, filtered) is None


def test_a_dataset_without_whole_sequences_says_so(catalog: Catalog) -> None:
    hand = Dataset("hand", "hand|1", catalog, {}, 1, 0, lambda n: {})
    with pytest.raises(DataError, match="holds no whole user sequences"):
        build_samples(hand, LAST.model_copy(update={"n_samples": 1}))


def test_on_the_demo_every_target_is_its_users_last_item_and_hidden_from_systems() -> None:
    cfg = DataConfig(target="last", n_samples=20)
    dataset = demo_dataset(cfg)
    samples = build_samples(dataset, cfg)
    whole = dataset.sequences()
    for s in samples:
        assert s.target_id == whole[s.user_id][-1]
        assert s.pre_target == tuple(whole[s.user_id][-21:-1])
    view = campaign_dataset(dataset, interactions_of(dataset, cfg), samples)
    deferred = deferred_campaign_dataset(dataset, cfg, lambda: samples)
    for systems_view in (view, deferred):  # what systems get never holds the targets
        with pytest.raises(DataError):
            systems_view.sequences()
    assert with_pre_target([s.model_copy(update={"pre_target": None}) for s in samples],
                           dataset, cfg) == samples  # fmt: skip
