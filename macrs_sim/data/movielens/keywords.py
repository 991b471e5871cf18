"""Fallback keywords for items: top genome tags, else the most frequent user tags."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pandas as pd

from macrs_sim.data.movielens import dat
from macrs_sim.data.movielens.csvio import Kind, iter_frames
from macrs_sim.data.movielens.layout import Release
from macrs_sim.errors import DataError

TOP_N = 8
MIN_RELEVANCE = 0.5
TAG_COLUMNS: dict[str, Kind] = {"userId": "int", "movieId": "int", "tag": "str", "timestamp": "int"}
GENOME_TAG_COLUMNS: dict[str, Kind] = {"tagId": "int", "tag": "str"}
GENOME_SCORE_COLUMNS: dict[str, Kind] = {"movieId": "int", "tagId": "int", "relevance": "float"}


def _iter_tags(release: Release) -> Iterator[tuple[int, str]]:
    if release.has("tags.dat"):
        yield from dat.iter_tags(release)
    elif release.has("tags.csv"):
        for _line, frame in iter_frames(release, "tags.csv", TAG_COLUMNS):
            yield from zip(frame["movieId"].tolist(), frame["tag"].tolist(), strict=True)


def user_tag_keywords(
    release: Release, known: set[int], top_n: int = TOP_N
) -> dict[int, list[str]]:
    """Per movie: its user tags, lowercased, by count (descending), then alphabetically."""
    counts: dict[int, Counter[str]] = {}
    for movie_id, tag in _iter_tags(release):
        key = " ".join(str(tag).lower().split())
        if key and movie_id in known:
            counts.setdefault(movie_id, Counter())[key] += 1
    return {
        movie_id: [tag for tag, _ in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))[:top_n]]
        for movie_id, c in counts.items()
    }


def has_genome(release: Release) -> bool:
    scores, tags = release.has("genome-scores.csv"), release.has("genome-tags.csv")
    if scores != tags:
        present, absent = (
            ("genome-scores.csv", "genome-tags.csv")
            if scores
            else ("genome-tags.csv", "genome-scores.csv")
        )
        raise DataError(f"{release.label(present)}: found without {absent}; expected both")
    return scores


def _genome_tags(release: Release) -> dict[int, str]:
    names: dict[int, str] = {}
    for _line, frame in iter_frames(release, "genome-tags.csv", GENOME_TAG_COLUMNS):
        tags = [str(t) for t in frame["tag"].tolist()]
        names.update(zip(frame["tagId"].tolist(), tags, strict=True))
    return names


def genome_keywords(release: Release, known: set[int], top_n: int = TOP_N) -> dict[int, list[str]]:
    """Per movie: genome tags with relevance >= 0.5, the ``top_n`` most relevant first."""
    names = _genome_tags(release)
    kept: pd.DataFrame | None = None
    label = release.label("genome-scores.csv")
    for line, frame in iter_frames(release, "genome-scores.csv", GENOME_SCORE_COLUMNS):
        unknown = ~frame["tagId"].isin(list(names))
        if unknown.any():
            row = int(unknown.to_numpy().argmax())
            tag_id = int(frame["tagId"].iloc[row])
            raise DataError(f"{label}:{line + row}: tagId {tag_id} is not in genome-tags.csv")
        strong = frame[(frame["relevance"] >= MIN_RELEVANCE) & frame["movieId"].isin(list(known))]
        strong = strong.assign(tag=strong["tagId"].map(names))[["movieId", "tag", "relevance"]]
        kept = _top(strong if kept is None else pd.concat([kept, strong]), top_n)
    result: dict[int, list[str]] = {}
    if kept is None:
        return result
    for movie_id, tag in zip(kept["movieId"].tolist(), kept["tag"].tolist(), strict=True):
        result.setdefault(int(movie_id), []).append(str(tag))
    return result


def _top(frame: pd.DataFrame, top_n: int) -> pd.DataFrame:
    ordered = frame.sort_values(
        ["movieId", "relevance", "tag"], ascending=[True, False, True], kind="stable"
    )
    return ordered.groupby("movieId", sort=False).head(top_n).reset_index(drop=True)
