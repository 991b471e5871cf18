"""Content checks for the bundled demo movie catalog (macrs_sim/data/demo/movies.jsonl)."""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib.resources import files

import pytest

EXPECTED_KEYS = {"item_id", "title", "year", "genres", "director", "cast", "keywords"}
GENRES = {
    "Action",
    "Adventure",
    "Animation",
    "Comedy",
    "Crime",
    "Documentary",
    "Drama",
    "Family",
    "Fantasy",
    "Horror",
    "Musical",
    "Mystery",
    "Romance",
    "Sci-Fi",
    "Thriller",
    "War",
    "Western",
}
SMALL_GENRES = {"Documentary", "Musical", "Western"}
MIN_PER_GENRE = 12
MIN_PER_SMALL_GENRE = 6


def _load() -> list[dict]:
    path = files("macrs_sim") / "data/demo/movies.jsonl"
    text = path.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return _load()


def _title_words(title: str) -> set[str]:
    # Letters only (Unicode-aware): split on anything that is not a letter.
    return {w.lower() for w in re.findall(r"[^\W\d_]+", title) if len(w) >= 4}


def test_record_count(records):
    assert len(records) >= 250


def test_ids_unique_and_consecutive(records):
    ids = [r["item_id"] for r in records]
    assert len(ids) == len(set(ids))
    assert ids == [f"m{i:03d}" for i in range(1, len(records) + 1)]


def test_keys_exact(records):
    for r in records:
        assert set(r) == EXPECTED_KEYS, r.get("item_id")


def test_field_types(records):
    for r in records:
        rid = r["item_id"]
        assert isinstance(r["title"], str) and r["title"].strip(), rid
        assert isinstance(r["year"], int) and not isinstance(r["year"], bool), rid
        assert isinstance(r["director"], str) and r["director"].strip(), rid
        for field in ("genres", "cast", "keywords"):
            assert isinstance(r[field], list), (rid, field)
            assert all(isinstance(x, str) and x.strip() for x in r[field]), (rid, field)


def test_genres_vocabulary_and_count(records):
    for r in records:
        g = r["genres"]
        assert 1 <= len(g) <= 3, r["item_id"]
        assert len(set(g)) == len(g), r["item_id"]
        assert set(g) <= GENRES, (r["item_id"], set(g) - GENRES)


def test_per_genre_minimums(records):
    counts = Counter(g for r in records for g in r["genres"])
    for genre in GENRES:
        minimum = MIN_PER_SMALL_GENRE if genre in SMALL_GENRES else MIN_PER_GENRE
        assert counts[genre] >= minimum, (genre, counts[genre])


def test_years_in_range(records):
    for r in records:
        assert 1920 <= r["year"] <= 2024, (r["item_id"], r["year"])


def test_cast_size(records):
    for r in records:
        assert 2 <= len(r["cast"]) <= 4, r["item_id"]


def test_keywords_size_and_lowercase(records):
    for r in records:
        kws = r["keywords"]
        assert 3 <= len(kws) <= 6, r["item_id"]
        for kw in kws:
            assert kw == kw.lower(), (r["item_id"], kw)


def test_keywords_do_not_leak_title_words(records):
    for r in records:
        words = _title_words(r["title"])
        for kw in r["keywords"]:
            leaked = [w for w in words if w in kw.lower()]
            assert not leaked, (r["item_id"], r["title"], kw, leaked)


def test_title_year_unique(records):
    pairs = [(r["title"], r["year"]) for r in records]
    dupes = [p for p, n in Counter(pairs).items() if n > 1]
    assert not dupes, dupes
