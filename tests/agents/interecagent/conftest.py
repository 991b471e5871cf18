"""Fixtures: the hand-written films of tests/tools (8 films, two named "Heat"), fake models.

Popularity orders the starting bus: 1 Star Voyage (30), 3 Heat 1995 (25), 7 Galaxy Kids (20),
6 Haunted Manor (15), 2 Paris in Love (12), 5 Laugh Factory (8), 4 Heat 1986 (3),
8 Quiet Rooms (0).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from macrs_sim.agents.interecagent.demos import DemoIndex, load_demonstrations
from macrs_sim.agents.interecagent.executor import BusExecutor, BusSettings
from macrs_sim.agents.interecagent.memory import ProfileMemory
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.protocol import Item
from macrs_sim.tools import ItemResolver, ToolCallLog, ToolResources
from tests.tools.fakes import FakeItemCF
from tests.tools.films import FILMS, write_database

# Preference scores of the fake ranking model (higher is better).
PREFERENCE = {"1": 0.1, "2": 0.6, "3": 0.5, "4": 0.9, "5": 0.4, "6": 0.3, "7": 0.7, "8": 0.2}


class FakeScorer:
    def score(self, history: Sequence[str]) -> Mapping[str, float]:
        return {i: s for i, s in PREFERENCE.items() if i not in history}


@pytest.fixture
def films() -> Catalog:
    return Catalog([
        Item(item_id=f[0], title=f[1], year=f[2], genres=tuple(f[3]), director=f[4],
             cast=tuple(f[5]), keywords=tuple(f[6]), overview=f[7])
        for f in FILMS
    ])  # fmt: skip


@pytest.fixture
def resources(tmp_path: Path, films: Catalog) -> ToolResources:
    return ToolResources(
        database=write_database(tmp_path / "films.sqlite"),
        resolver=ItemResolver(films),
        popularity={f[0]: f[8] for f in FILMS},
        scorer=FakeScorer(),
        neighbours=FakeItemCF(),
    )


@pytest.fixture
def log() -> ToolCallLog:
    return ToolCallLog()


@pytest.fixture
def memory() -> ProfileMemory:
    return ProfileMemory(history=["1"])


@pytest.fixture
def executor(resources: ToolResources, memory: ProfileMemory, log: ToolCallLog) -> BusExecutor:
    return BusExecutor(resources, memory, log=log, settings=BusSettings(soft_fraction=0.25))


@pytest.fixture
def demos() -> DemoIndex:
    return DemoIndex(load_demonstrations())


@pytest.fixture
def in_dialogue() -> Iterator[CallContext]:
    ctx = CallContext(role="interecagent.tools", dialogue_id="d1", system="ira", turn=2)
    with calling(ctx):
        yield ctx
