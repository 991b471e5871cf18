import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.samples import build_samples, candidate_sample
from macrs_sim.data.users import Interaction
from macrs_sim.errors import DataError


def _seq(user: str, items: list[str]) -> list[Interaction]:
    # Reverse timestamps on input order to check that chronology, not file order, counts.
    return [Interaction(user, i, t) for t, i in reversed(list(enumerate(items)))]


def test_history_is_first_n_and_target_is_next(catalog: Catalog) -> None:
    cfg = DataConfig(history_len=4, min_history=1, filter_by_category=False)
    s = candidate_sample("u1", ["m1", "m2", "m3", "m4", "m5", "m6"], catalog, cfg)
    assert s is not None
    assert s.history == ("m1", "m2", "m3", "m4") and s.target_id == "m5"


def test_category_filter_and_minimum_history(catalog: Catalog) -> None:
    # Target m2 (Action, Sci-Fi): of m1 Heat (Crime), m4 Alien (Sci-Fi), m7 Heat (Action),
    # m3 Up (Animation) only m4 and m7 share a genre.
    items = ["m1", "m4", "m7", "m3", "m2"]
    s = candidate_sample("u1", items, catalog, DataConfig(history_len=4, min_history=2))
    assert s is not None and s.history == ("m4", "m7")
    assert candidate_sample("u1", items, catalog, DataConfig(history_len=4, min_history=3)) is None
    assert (
        candidate_sample("u1", items[:4], catalog, DataConfig(history_len=4, min_history=1)) is None
    )


def test_seeded_draw_is_reproducible_and_sized(catalog: Catalog) -> None:
    rows = [r for u in range(6) for r in _seq(f"u{u}", ["m1", "m4", "m7", "m2"])]
    cfg = DataConfig(history_len=3, min_history=2, n_samples=3, seed=5)
    first = build_samples(rows, catalog, cfg)
    assert [s.sample_id for s in first] == [s.sample_id for s in build_samples(rows, catalog, cfg)]
    assert len(first) == 3 and len({s.user_id for s in first}) == 3
    assert all(s.history == ("m4", "m7") and s.target_id == "m2" for s in first)


def test_too_few_eligible_users_is_a_clear_error(catalog: Catalog) -> None:
    rows = _seq("u1", ["m1", "m4", "m7", "m2"])
    with pytest.raises(DataError, match=r"data.n_samples = 2: only 1 users are eligible"):
        build_samples(rows, catalog, DataConfig(history_len=3, min_history=2, n_samples=2))
