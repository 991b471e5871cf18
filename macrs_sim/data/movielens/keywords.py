"""Keywords from the tag genome (ml-20m, ml-25m): the most relevant tags of each movie."""

from __future__ import annotations

import pandas as pd

from macrs_sim.data.movielens.csvio import Kind, iter_frames
from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.tags import TOP_N
from macrs_sim.errors import DataError

MIN_RELEVANCE = 0.5
GENOME_TAG_COLUMNS: dict[str, Kind] = {"tagId": "int", "tag": "str"}
GENOME_SCORE_COLUMNS: dict[str, Kind] = {"movieId": "int", "tagId": "int", "relevance": "float"}


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
