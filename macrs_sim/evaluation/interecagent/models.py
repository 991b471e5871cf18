"""The trained models of the one-turn task, on the leave-one-out split (never a test target).

InteRecAgent's ranking tool model (its `ranker` option) and item-CF neighbours, and each
reference ranker; all through the rankers' checkpoint cache. The interaction counts its
tools rank and order by leave the test targets out too.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from macrs_sim.agents.interecagent.build import InteRecAgentPrepared, prepare
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, Split, with_visible_popularity
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.systems import RankerSystem
from macrs_sim.rankers.train import MODEL_KINDS, make_params, train_ranker
from macrs_sim.tools import RankerNeighbours, RankerScorer

BASELINES = ("random", *MODEL_KINDS)


def check_baselines(names: Sequence[str]) -> list[str]:
    for name in names:
        if name not in BASELINES:
            raise ConfigError(
                f"--baselines: unknown ranker {name!r}; expected some of {', '.join(BASELINES)}"
            )
    return list(dict.fromkeys(names))


def without_targets(dataset: Dataset, data: Interactions, split: Split) -> Dataset:
    """`dataset` with popularity counts that leave the held-out test targets out."""
    return with_visible_popularity(dataset, data, {c.user_id: c.history for c in split.test})


def prepare_interecagent(
    options: InteRecAgentOptions,
    dataset: Dataset,
    data: Interactions,
    split: Split,
    cache_dir: Path,
    *,
    use_text_model: bool = True,
) -> InteRecAgentPrepared:
    scorer = None
    if options.ranker != "popularity":
        params = options.ranker_params if options.ranker == "sasrec" else {}
        model = train_ranker(options.ranker, data, split, make_params(options.ranker, params),
                             cache_dir)  # fmt: skip
        scorer = RankerScorer(model.ranker)
    cf = train_ranker("itemcf", data, split, make_params("itemcf", {}), cache_dir)
    neighbours = RankerNeighbours(cf.ranker)  # type: ignore[arg-type]
    seen = without_targets(dataset, data, split)
    return prepare(options, seen, cache_dir, scorer=scorer, neighbours=neighbours,
                   use_text_model=use_text_model)  # fmt: skip


def reference_systems(
    names: Sequence[str], data: Interactions, split: Split, cache_dir: Path, seed: int
) -> list[RankerSystem]:
    systems = []
    for name in names:
        if name == "random":
            systems.append(RankerSystem(name, None, data.item_ids, seed))
            continue
        trained = train_ranker(name, data, split, make_params(name, {}), cache_dir)
        systems.append(RankerSystem(name, trained.ranker, data.item_ids, seed))
    return systems
