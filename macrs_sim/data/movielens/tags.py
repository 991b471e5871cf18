"""User tags as keywords: only tags that several users gave a film, minus bookkeeping tags."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from macrs_sim.data.movielens import dat
from macrs_sim.data.movielens.csvio import Kind, iter_frames
from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.tag_noise import noise_rule, normalize_tag
from macrs_sim.data.movielens.unknown import UnknownMovies

TOP_N = 8
TAG_COLUMNS: dict[str, Kind] = {"userId": "int", "movieId": "int", "tag": "str", "timestamp": "int"}


@dataclass(frozen=True)
class UserTags:
    keywords: dict[int, list[str]]  # movies with at least one kept tag
    dropped: int  # tag rows of movies not in the movies file
    dropped_movies: int


def _iter_tags(release: Release) -> Iterator[tuple[str, int, int, str]]:
    """(file:line, user id, movie id, raw tag) of tags.dat or tags.csv, if the release has one."""
    if release.has("tags.dat"):
        label = release.label("tags.dat")
        for line, user, movie, tag in dat.iter_tags(release):
            yield f"{label}:{line}", user, movie, tag
    elif release.has("tags.csv"):
        label = release.label("tags.csv")
        for line, frame in iter_frames(release, "tags.csv", TAG_COLUMNS):
            users, movies, tags = (frame[c].tolist() for c in ("userId", "movieId", "tag"))
            rows = zip(users, movies, tags, strict=True)
            for offset, (user, movie, tag) in enumerate(rows):
                yield f"{label}:{line + offset}", user, movie, tag


def _ranked(by_tag: dict[str, set[int]], min_users: int, top_n: int) -> list[str]:
    """Tags given by at least ``min_users`` users, most users first, then alphabetically."""
    counted = [(tag, len(users)) for tag, users in by_tag.items() if len(users) >= min_users]
    counted.sort(key=lambda kv: (-kv[1], kv[0]))
    return [tag for tag, _ in counted[:top_n]]


def user_tag_keywords(
    release: Release, unknown: UnknownMovies, min_users: int, top_n: int = TOP_N
) -> UserTags:
    """Per movie: up to ``top_n`` tags, each given by ``min_users`` or more distinct users.

    Tags are lowercased with single spaces (so "Pixar" and " pixar" are one tag) and
    bookkeeping tags ("toplist07", "9/10", "dvd": see ``tag_noise``) are left out.
    """
    users: dict[int, dict[str, set[int]]] = {}
    dropped: Counter[int] = Counter()
    noise: dict[str, bool] = {}  # verdict per distinct raw tag: far fewer than rows
    for where, user, movie, raw in _iter_tags(release):
        if not unknown.check(movie, where, "tagged"):
            dropped[movie] += 1
            continue
        tag = normalize_tag(raw)
        if tag not in noise:
            noise[tag] = noise_rule(tag) is not None
        if not noise[tag]:
            users.setdefault(movie, {}).setdefault(tag, set()).add(user)
    keywords = {movie: _ranked(by_tag, min_users, top_n) for movie, by_tag in users.items()}
    return UserTags(
        {movie: tags for movie, tags in keywords.items() if tags},
        dropped.total(),
        len(dropped),
    )
