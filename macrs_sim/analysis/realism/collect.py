"""The two sides, read once each in bounded memory: a run's simulated users (streamed from
its store) and a corpus's seekers (streamed from its file), measured against one catalog."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

from macrs_sim.analysis.realism.measures import measure
from macrs_sim.analysis.realism.sample import CAP, SideSample
from macrs_sim.analysis.realism.side import UserSide, from_corpus, from_result
from macrs_sim.analysis.realism.titles import TitleIndex
from macrs_sim.analysis.runs.load import RunData
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.corpora import CorpusStats, read_corpus
from macrs_sim.data.grounding import grounder_for
from macrs_sim.protocol import Item

RESOLVED = 65_536  # titles kept resolved (ReDial names about 7,000 films)


def resolver(catalog: Catalog | None) -> Callable[[str], Item | None]:
    """Title -> catalog item by the grounder (None: not in the catalog, or ambiguous)."""
    if catalog is None:
        return lambda title: None
    grounder = grounder_for(catalog)

    @functools.lru_cache(maxsize=RESOLVED)
    def resolve(title: str) -> Item | None:
        ref = grounder.ground(title)
        if ref.item_id is None or ref.method in ("ambiguous", "none"):
            return None
        return catalog[ref.item_id]

    return resolve


def _keep(side: SideSample, user: UserSide, titles: TitleIndex) -> None:
    if user.turns:
        side.add(measure(user, titles))


def corpus_side(
    path: Path, catalog: Catalog | None, titles: TitleIndex, stats: CorpusStats, *, cap: int = CAP
) -> SideSample:
    side, resolve = SideSample("people", cap), resolver(catalog)
    for dialogue in read_corpus(path, stats):
        _keep(side, from_corpus(dialogue, resolve), titles)
    return side


def run_side(
    run: RunData, catalog: Catalog | None, titles: TitleIndex, *, cap: int = CAP
) -> SideSample:
    side = SideSample(run.name, cap)
    for result in run.iter_results():
        target = catalog[result.target_id] if catalog and result.target_id in catalog else None
        _keep(side, from_result(result, target), titles)
    return side
