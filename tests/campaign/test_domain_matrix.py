"""Every LLM system on every domain: the example downloads in examples/ (made-up Amazon
products, Yelp restaurants and Steam games, in their publishers' formats) are prepared by
their loaders, and each system completes a short campaign on each with no errored dialogue
(a) on the scripted backend and (b) through the fake OpenAI server over HTTP, where no
request of a non-film domain may say "movie" or "film": every prompt takes the domain's
words. Measured: about 10 s a domain on the scripted backend (rankers trained small)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from macrs_sim.data.registry import dataset_spec
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.probe import forget_probes
from tests.campaign.matrix_scenarios import SYSTEMS, run_row
from tests.campaign.matrix_scenarios import scenario as matrix_scenario

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DOWNLOADS = {
    "amazon": EXAMPLES / "amazon-2018" / "All_Beauty_5.json.gz",
    "yelp": EXAMPLES / "yelp",
    "steam": EXAMPLES / "steam",
}
ALL = [s.options() for s in SYSTEMS]
FILM_WORDS = re.compile(r"movie|film", re.IGNORECASE)


@pytest.fixture(scope="module")
def databases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("domains")
    out = {}
    for kind, source in DOWNLOADS.items():
        spec = dataset_spec(kind)
        out[kind] = folder / f"{kind}.sqlite"
        spec.loader()(source, out[kind], spec.options(), overwrite=False)
    return out


@pytest.fixture(scope="module", autouse=True)
def ranker_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    cache = tmp_path_factory.mktemp("domain-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(cache))
        yield cache


def _data(path: Path) -> dict[str, object]:
    return {"dataset": str(path), "history_len": 4, "min_history": 2}


@pytest.mark.parametrize("kind", sorted(DOWNLOADS))
async def test_every_system_on_each_domain_scripted(
    kind: str, databases: dict[str, Path], tmp_path: Path
) -> None:
    sc = matrix_scenario(
        f"domain-{kind}", {"backend": "scripted"}, ALL, simulator="llm", n_samples=2,
        max_turns=2, data=_data(databases[kind]),
    )  # fmt: skip
    stored = await run_row(sc, tmp_path)
    assert all(c.ok for c in stored.calls)


@pytest.mark.parametrize("kind", sorted(DOWNLOADS))
async def test_no_request_of_another_domain_says_movie(
    kind: str, databases: dict[str, Path], tmp_path: Path
) -> None:
    forget_probes()
    async with FakeOpenAIServer() as srv:
        model = {"backend": "openai", "model": "fake", "base_url": srv.base_url,
                 "api_key_env": None}  # fmt: skip
        sc = matrix_scenario(
            f"domain-{kind}-http", model, ALL, simulator="llm", n_samples=1, max_turns=2,
            concurrency=8, data=_data(databases[kind]),
        )  # fmt: skip
        await run_row(sc, tmp_path)
        bodies = srv.chat_bodies()
    forget_probes()
    assert len(bodies) > len(SYSTEMS)
    said = [m for b in bodies for m in re.findall(r".{0,60}(?:movie|film).{0,60}",
                                                   json.dumps(b["messages"]), re.I)]  # fmt: skip
    assert not said, said[:10]
