"""Precision and recall on the labelled case file (the benchmark reads the same file)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.data.grounding.evaluate import Case, evaluate, load_cases, movielens_fixture
from macrs_sim.errors import DataError

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def setup() -> tuple[list[Case], dict[str, Grounder]]:
    ml, counts = movielens_fixture(HERE / "ml_movies.csv", HERE / "ml_counts.csv")
    demo = Catalog.demo()
    cases = load_cases(HERE / "cases.jsonl", {"demo": demo, "movielens": ml})
    return cases, {"demo": Grounder(demo), "movielens": Grounder(ml, popularity=counts)}


def test_the_case_file_covers_what_models_say(
    setup: tuple[list[Case], dict[str, Grounder]],
) -> None:
    cases, _ = setup
    assert len(cases) >= 300
    per_category = Counter(c.category for c in cases)
    for category in ("sequel", "remake", "subtitle", "foreign", "article", "accent",
                     "misspelling", "decoration", "absent", "title_number"):  # fmt: skip
        assert per_category[category] >= 8, category
    assert sum(c.expected is None for c in cases) >= 100  # films the catalogs do not have


def test_precision_and_recall_targets(setup: tuple[list[Case], dict[str, Grounder]]) -> None:
    cases, grounders = setup
    overall = evaluate(cases, grounders)["all"]
    assert overall.precision is not None and overall.recall is not None
    assert overall.precision >= 0.995, overall.mistakes
    # The target is met with room to spare today: no case may ground to a wrong film.
    assert overall.precision == 1.0, overall.mistakes
    assert overall.recall >= 0.95, overall.mistakes


def test_a_case_naming_a_film_the_catalog_lacks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text(
        '{"catalog": "demo", "said": "Heat", "expect": "Heat (1986)", "category": "remake"}\n',
        encoding="utf-8",
    )
    with pytest.raises(DataError, match=r"cases.jsonl:1: 'Heat \(1986\)' is not in catalog"):
        load_cases(path, {"demo": Catalog.demo()})


def test_a_malformed_case_line_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    path.write_text('\n{"catalog": "demo", "said": "Heat"}\n', encoding="utf-8")
    expected = r"cases.jsonl:2: not a case \(a JSON object with catalog, said, expect, category\)"
    with pytest.raises(DataError, match=expected):
        load_cases(path, {"demo": Catalog.demo()})
