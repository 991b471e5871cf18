"""Checkpoint cache: a second call loads, any input change misses, a broken file retrains."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from macrs_sim.data.splits import from_pairs, leave_one_out
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.cache import default_cache_dir
from macrs_sim.rankers.train import make_params, train_ranker
from tests.rankers.toy_data import chain_data


def test_second_call_hits_and_gives_the_same_scores(tmp_path: Path) -> None:
    data = chain_data()
    split = leave_one_out(data)
    params = make_params("itemcf", {"neighbours": "5"})
    first = train_ranker("itemcf", data, split, params, tmp_path)
    second = train_ranker("itemcf", data, split, params, tmp_path)
    assert (first.cache_hit, second.cache_hit) == (False, True)
    assert first.checkpoint == second.checkpoint
    assert np.array_equal(first.ranker.score([[1, 2]]), second.ranker.score([[1, 2]]))
    assert second.record["params"] == {"neighbours": 5}
    assert sorted(p.name for p in tmp_path.iterdir()) == [first.checkpoint.name]  # no temp files


def test_other_params_or_data_miss(tmp_path: Path) -> None:
    data = chain_data()
    split = leave_one_out(data)
    a = train_ranker("itemcf", data, split, make_params("itemcf", {}), tmp_path)
    b = train_ranker("itemcf", data, split, make_params("itemcf", {"neighbours": "3"}), tmp_path)
    other = from_pairs("toy", "other|fp", data.item_ids, [("u", "i1"), ("u", "i2")])
    c = train_ranker("itemcf", other, leave_one_out(other), make_params("itemcf", {}), tmp_path)
    assert not (a.cache_hit or b.cache_hit or c.cache_hit)
    assert len({a.checkpoint, b.checkpoint, c.checkpoint}) == 3


def test_a_broken_checkpoint_is_retrained(tmp_path: Path) -> None:
    data = chain_data()
    split = leave_one_out(data)
    params = make_params("popularity", {})
    first = train_ranker("popularity", data, split, params, tmp_path)
    first.checkpoint.write_bytes(b"not a zip")
    again = train_ranker("popularity", data, split, params, tmp_path)
    assert not again.cache_hit
    assert train_ranker("popularity", data, split, params, tmp_path).cache_hit


def test_bad_parameters_are_one_line() -> None:
    with pytest.raises(
        ConfigError, match=r"itemcf parameter neighbours: .*greater than or equal to 0"
    ):
        make_params("itemcf", {"neighbours": "-1"})
    with pytest.raises(ConfigError, match=r"itemcf parameter dim: Extra inputs are not permitted"):
        make_params("itemcf", {"dim": "3"})
    with pytest.raises(ConfigError, match=r"unknown model 'svd'; expected one of popularity"):
        make_params("svd", {})


def test_default_cache_dir_beside_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = chain_data()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir(data) == tmp_path / "xdg" / "macrs-sim" / "models" / "demo"
    db = tmp_path / "ml.sqlite"
    on_disk = type(data)(data.dataset_name, data.fingerprint, data.item_ids, data.sequences, db)
    assert default_cache_dir(on_disk) == tmp_path / "ml.sqlite.models"


def test_torch_models_without_torch_name_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    for name in ("torch", "macrs_sim.rankers.bpr", "macrs_sim.rankers.torch.sasrec"):
        monkeypatch.setitem(sys.modules, name, None)  # import of these now raises ImportError
    for kind in ("bpr", "sasrec"):
        with pytest.raises(
            ConfigError, match=rf"model '{kind}' needs torch: pip install 'macrs-sim\[recsys\]'"
        ):
            make_params(kind, {})
    assert make_params("itemcf", {}).model_dump() == {"neighbours": 200}


def test_same_counts_other_interactions_other_key(tmp_path: Path) -> None:
    """A database prepared again: same name, fingerprint (ids, titles, counts), other ratings."""
    from macrs_sim.rankers.cache import cache_key, data_identity, interactions_digest
    from tests.rankers.toy_data import toy

    first = toy({"a": [0, 1, 2], "b": [2, 1]}, 4)
    again = toy({"a": [2, 1, 0], "b": [1, 3]}, 4)  # 3 + 2 interactions, as before
    assert (first.fingerprint, first.n_interactions) == (again.fingerprint, again.n_interactions)
    params = make_params("popularity", {})
    keys = {cache_key("popularity", params, data_identity(d), "loo") for d in (first, again)}
    assert len(keys) == 2
    # The digest, worked by hand: item count, ids, then each user (sorted): id, length, items.
    h = hashlib.sha256(b"4\ni0\ni1\ni2\ni3\n")
    for user, seq in (("a", [0, 1, 2]), ("b", [2, 1])):
        h.update(f"{user}\t{len(seq)}\n".encode() + b"".join(i.to_bytes(8, "little") for i in seq))
    assert interactions_digest(first) == h.hexdigest()[:16]
    assert data_identity(first) == f"toy|fp|interactions={h.hexdigest()[:16]}"
    # The same interactions under the same fingerprint: the same key, whatever the order given.
    same = toy({"b": [2, 1], "a": [0, 1, 2]}, 4)
    assert interactions_digest(same) == interactions_digest(first)
    # Through train_ranker: the second database trains its own model, never loads the first's.
    a = train_ranker("popularity", first, leave_one_out(first), params, tmp_path)
    b = train_ranker("popularity", again, leave_one_out(again), params, tmp_path)
    assert (a.cache_hit, b.cache_hit) == (False, False) and a.checkpoint != b.checkpoint
    assert b.record["interactions"] == interactions_digest(again)
    # Leave-one-out trains on a's first item and all of b's (too short to hold out).
    assert a.ranker.score([[]])[0].tolist() == [1.0, 1.0, 1.0, 0.0]  # a: 0; b: 2 1
    assert b.ranker.score([[]])[0].tolist() == [0.0, 1.0, 1.0, 1.0]  # a: 2; b: 1 3
