"""A campaign on another domain's items records the domain, and its report speaks of them:
a product run (the Amazon example download) stores "products" in its meta, its report never
says "film" or "movie" and words the grounding's ambiguity for names; the tool text hash
it records is of the text InteRecAgent was shown (the catalog's columns). A film run
records no domain and reads as before (the golden reports pin it)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from macrs_sim.analysis.runs.domain import DOMAIN_META
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.domain import PRODUCTS
from macrs_sim.data.registry import dataset_spec
from macrs_sim.prompts import PromptLibrary
from macrs_sim.store import RunStore
from macrs_sim.tools.attribute_columns import catalog_schema
from macrs_sim.tools.schema import prompt_words
from macrs_sim.viewer.export import run_summary
from tests.campaign.matrix_scenarios import run_row, scenario

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

AMAZON = Path(__file__).resolve().parents[2] / "examples" / "amazon-2018" / "All_Beauty_5.json.gz"
SYSTEMS = [
    {"name": "single-LLM", "kind": "single_llm"},
    {"name": "InteRecAgent", "kind": "interecagent", "ranker": "popularity",
     "demo_retrieval": "tokens"},
]  # fmt: skip


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    yield tmp_path / "cache"


async def test_a_product_run_records_its_domain_and_reports_in_its_words(
    tmp_path: Path, cache: Path
) -> None:
    spec = dataset_spec("amazon")
    db = tmp_path / "amazon.sqlite"
    spec.loader()(AMAZON, db, spec.options(), overwrite=False)
    data = {"dataset": str(db), "history_len": 4, "min_history": 2}
    sc = scenario("products-report", {"backend": "scripted"}, SYSTEMS, simulator="llm",
                  n_samples=2, max_turns=2, data=data)  # fmt: skip
    stored = await run_row(sc, tmp_path / "runs", report=True)
    with RunStore.open(stored.run_dir / "store.sqlite") as store:
        meta = store.all_meta()
    assert meta[DOMAIN_META] == "products"
    assert load_run(stored.run_dir).domain == PRODUCTS
    # The viewer's off-profile badge says a product's attributes (films' keep the viewer's own).
    header = run_summary(load_run(stored.run_dir), 0, {})
    title = "off-profile: a category, brand, price range or feature the target does not have"
    assert header["check_titles"] == {"off_profile": title}
    words = prompt_words(catalog_schema(open_dataset(DataConfig(dataset=str(db)))))
    shown = PromptLibrary(domain=PRODUCTS, catalog=words).get("interecagent/tools")
    assert json.loads(meta["prompt_sha256"])["interecagent/tools"] == shown.sha256
    report = (stored.run_dir / "report.md").read_text(encoding="utf-8")
    assert "ambiguous (the name fits several products and nothing said tells them" in report
    assert re.findall(r".{0,40}(?:film|movie).{0,40}", report, re.IGNORECASE) == []
    # Its question slots are a product's attributes, not a film's genre and era.
    assert "| System | category | brand | price range | feature | open |" in report
    found = re.findall(r".{0,40}\b(?:genres?|era|decade)\b.{0,40}", report, re.IGNORECASE)
    assert found == []
