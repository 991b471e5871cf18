"""Rankers are registered specs: a ranker registered here (a tiny one) trains, saves, loads
and ranks through the code paths the built-ins take; bad registrations are refused."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import BaseModel, Field

import macrs_sim
from macrs_sim.data.splits import Split, leave_one_out
from macrs_sim.errors import ConfigError
from macrs_sim.rankers import registry
from macrs_sim.rankers.base import Arrays, Scores, mask_seen, top_items
from macrs_sim.rankers.params import RankerParams
from macrs_sim.rankers.registry import RankerSpec, ranker_kinds, ranker_spec, register_ranker
from macrs_sim.rankers.train import check_kind, make_params, train_ranker
from tests.rankers.toy_data import chain_data, toy

BUILTINS = ["popularity", "itemcf", "bpr", "sasrec", "bert4rec"]
TRAINED: list[str] = []  # one entry per call of the tiny trainer


class TransitionParams(RankerParams):
    weight: float = Field(default=1.0, gt=0, le=10)


class TransitionRanker:
    """Scores item j by weight x how often j directly followed the history's last item."""

    kind = "transition"

    def __init__(self, item_ids: tuple[str, ...], counts: Scores) -> None:
        self.item_ids, self.counts = item_ids, counts

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        rows = [self.counts[h[-1]] if h else np.zeros(len(self.item_ids)) for h in histories]
        return mask_seen(np.array(rows, dtype=np.float32), histories)

    def arrays(self) -> Arrays:
        return {"counts": self.counts}


def train(
    item_ids: tuple[str, ...], split: Split, params: TransitionParams, progress: Any
) -> TransitionRanker:
    TRAINED.append(split.key)
    counts = np.zeros((len(item_ids), len(item_ids)), dtype=np.float32)
    for seq in split.train.values():
        for a, b in zip(seq, seq[1:], strict=False):
            counts[a, b] += params.weight
    return TransitionRanker(item_ids, counts)


def load(item_ids: tuple[str, ...], arrays: Arrays, params: TransitionParams) -> TransitionRanker:
    return TransitionRanker(item_ids, arrays["counts"].astype(np.float32))


def not_a_ranker(item_ids: tuple[str, ...], split: Split, params: Any, progress: Any) -> object:
    return object()


TRANSITION = RankerSpec("transition", TransitionParams, f"{__name__}:train", f"{__name__}:load")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """An empty, not yet loaded registry: the built-ins load on first use, as in a process."""
    monkeypatch.setattr(registry, "_SPECS", {})
    monkeypatch.setattr(registry, "_loaded", False)
    TRAINED.clear()
    yield


def test_a_registered_ranker_trains_saves_loads_and_ranks(fresh: None, tmp_path: Path) -> None:
    # u1 trains on 0 1 2, u2 on 0 1 3, u3 (two items) on 1 2: 0->1 twice, 1->2 twice, 1->3 once.
    data = toy({"u1": [0, 1, 2, 3, 4], "u2": [0, 1, 3, 4, 2], "u3": [1, 2]}, 5)
    split = leave_one_out(data)
    register_ranker(TRANSITION)
    assert ranker_kinds() == [*BUILTINS, "transition"]
    params = make_params("transition", {"weight": "2"})
    assert params == TransitionParams(weight=2.0)
    first = train_ranker("transition", data, split, params, tmp_path)
    again = train_ranker("transition", data, split, params, tmp_path)
    assert (first.cache_hit, again.cache_hit, len(TRAINED)) == (False, True, 1)
    assert first.checkpoint == again.checkpoint
    assert first.checkpoint.name.startswith("transition-")
    assert [p.name for p in tmp_path.iterdir()] == [first.checkpoint.name]
    assert again.record["kind"] == "transition" and again.record["params"] == {"weight": 2.0}
    assert isinstance(again.ranker, TransitionRanker)  # rebuilt by the spec's `load`
    expected = [("i2", 4.0), ("i3", 2.0), ("i4", 0.0)]  # 0 and 1 seen; row of item 1, x2
    assert top_items(first.ranker, ["i0", "i1"], 5) == expected
    assert top_items(again.ranker, ["i0", "i1"], 5) == expected


def test_builtin_checkpoints_keep_their_names(fresh: None, tmp_path: Path) -> None:
    # Names written by the code before the registry (commit 15b4442), on the same data.
    data = chain_data()
    split = leave_one_out(data)
    pop = train_ranker("popularity", data, split, make_params("popularity", {}), tmp_path)
    cf = train_ranker("itemcf", data, split, make_params("itemcf", {"neighbours": "5"}), tmp_path)
    assert pop.checkpoint.name == "popularity-899dc22e827489bc.npz"
    assert cf.checkpoint.name == "itemcf-c3ef71910a6ebe76.npz"
    assert pop.ranker.score([[1, 2]])[0][:4].tolist() == [36.0, -np.inf, -np.inf, 34.0]


def test_unknown_kind_is_one_line_naming_the_known_kinds(fresh: None) -> None:
    register_ranker(TRANSITION)
    known = "popularity, itemcf, bpr, sasrec, bert4rec, transition"
    for call in (ranker_spec, check_kind, lambda k: make_params(k, {})):
        with pytest.raises(ConfigError) as err:
            call("svd")
        assert str(err.value) == f"unknown model 'svd'; expected one of {known}"
    with pytest.raises(ConfigError, match=r"^transition parameter wieght: Extra inputs"):
        make_params("transition", {"wieght": "2"})


def test_a_duplicate_registration_is_refused(fresh: None) -> None:
    register_ranker(TRANSITION)
    with pytest.raises(ValueError, match=r"^ranker kind 'transition' is already registered$"):
        register_ranker(TRANSITION)
    # A built-in kind is taken even before anything looked the registry up.
    registry._SPECS.clear()
    registry._loaded = False
    other = RankerSpec("popularity", TransitionParams, f"{__name__}:train", f"{__name__}:load")
    with pytest.raises(ValueError, match=r"^ranker kind 'popularity' is already registered$"):
        register_ranker(other)
    assert ranker_spec("popularity").params.__name__ == "PopularityParams"


class Loose(BaseModel):
    weight: float = 1.0


class Open(RankerParams, extra="allow"):
    pass


@pytest.mark.parametrize(
    ("kind", "params", "ref", "message"),
    [
        ("../up", TransitionParams, "m:f", "ranker kind '../up': use lowercase letters"),
        ("Big", TransitionParams, "m:f", "ranker kind 'Big': use lowercase letters"),
        ("t", Loose, "m:f", "ranker 't': params must subclass RankerParams"),
        ("t", Open, "m:f", "ranker 't': params must refuse unknown fields"),
        ("t", TransitionParams, "m.f", "ranker 't': 'm.f' is not 'module:function'"),
    ],
)
def test_a_bad_spec_is_refused(kind: str, params: Any, ref: str, message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        RankerSpec(kind, params, ref, "m:f")


def test_bad_refs_and_trainers_are_one_line(fresh: None, tmp_path: Path) -> None:
    data = chain_data(n_users=4, n_items=5)
    split = leave_one_out(data)
    missing = RankerSpec("gone", TransitionParams, "no_such_module_x:train", "m:f", extra="gone")
    register_ranker(missing)
    with pytest.raises(ConfigError, match=r"^model 'gone' cannot be loaded \(No module named"):
        train_ranker("gone", data, split, TransitionParams(), tmp_path)
    register_ranker(RankerSpec("bad", TransitionParams, f"{__name__}:not_a_ranker", "m:f"))
    with pytest.raises(TypeError, match=r"^ranker 'bad': .*:not_a_ranker returned object, not"):
        train_ranker("bad", data, split, TransitionParams(), tmp_path)
    register_ranker(RankerSpec("needy", TransitionParams, "m:f", "m:f", ("no_such_module_x",)))
    with pytest.raises(ConfigError, match=r"^model 'needy' needs no_such_module_x: install it$"):
        make_params("needy", {})
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_entry_points_load_on_first_use(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    class EntryPoint:
        def load(self) -> Any:
            return lambda: TRANSITION  # a function returning the spec

    groups: list[str] = []

    def entry_points(group: str) -> list[EntryPoint]:
        groups.append(group)
        return [EntryPoint()]

    monkeypatch.setattr(registry, "entry_points", entry_points)
    assert groups == []  # nothing loaded at import
    assert ranker_spec("transition") is TRANSITION
    assert ranker_kinds()[-1] == "transition"
    assert groups == ["macrs_sim.rankers"]  # once per process


def test_exported_from_the_package() -> None:
    assert macrs_sim.register_ranker is register_ranker
    assert macrs_sim.RankerSpec is RankerSpec
