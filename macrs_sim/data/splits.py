"""What a trained model may see: each user's sequence, cut so held-out targets stay unseen.

Two splits. Leave-one-out (offline evaluation): a user's last interaction is the
test target, the second-last the validation target, the rest is training data.
Campaign: everything except each sample's target and that user's later items;
the last visible item of each user validates (early stopping), the rest trains.
Items are indices into `Interactions.item_ids` (the catalog's order).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import Dataset, open_dataset, read_only
from macrs_sim.data.users import synthesize_interactions
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample


@dataclass(frozen=True)
class Interactions:
    """Every user's items in time order (ties: file order), as catalog indices."""

    dataset_name: str
    fingerprint: str
    item_ids: tuple[str, ...]
    sequences: dict[str, tuple[int, ...]]
    # The prepared database these came from; None for the demo.
    database: Path | None = None

    @property
    def n_items(self) -> int:
        return len(self.item_ids)

    @property
    def n_interactions(self) -> int:
        return sum(len(s) for s in self.sequences.values())


@dataclass(frozen=True)
class EvalCase:
    """Score all items for `history`; where does `target` land?"""

    user_id: str
    history: tuple[int, ...]
    target: int


@dataclass(frozen=True)
class Split:
    name: str
    train: dict[str, tuple[int, ...]]
    validation: tuple[EvalCase, ...]
    test: tuple[EvalCase, ...]
    # Identifies the cut (which targets were held out), for checkpoint cache keys.
    key: str


def from_pairs(
    name: str, fingerprint: str, item_ids: Sequence[str], rows: Iterable[tuple[str, str]]
) -> Interactions:
    """(user, item) rows already in time order; items outside the catalog are skipped."""
    index = {item_id: i for i, item_id in enumerate(item_ids)}
    seqs: dict[str, list[int]] = defaultdict(list)
    for user_id, item_id in rows:
        i = index.get(item_id)
        if i is not None:
            seqs[user_id].append(i)
    return Interactions(name, fingerprint, tuple(item_ids), {u: tuple(s) for u, s in seqs.items()})


_SEQUENCE_SQL = "SELECT user_id, item_id FROM interactions ORDER BY user_id, timestamp, rowid"


def _database_rows(path: Path) -> list[tuple[str, str]]:
    with closing(read_only(path)) as conn:
        return [(str(u), str(i)) for u, i in conn.execute(_SEQUENCE_SQL)]


def interactions_of(dataset: Dataset, cfg: DataConfig) -> Interactions:
    item_ids = [item.item_id for item in dataset.catalog]
    if cfg.dataset == "demo":
        synthetic = synthesize_interactions(dataset.catalog, seed=cfg.seed)
        ordered = sorted(synthetic, key=lambda r: (r.user_id, r.timestamp))
        rows = [(r.user_id, r.item_id) for r in ordered]
        return from_pairs(dataset.name, dataset.fingerprint, item_ids, rows)
    path = Path(cfg.dataset)
    found = from_pairs(dataset.name, dataset.fingerprint, item_ids, _database_rows(path))
    return Interactions(
        found.dataset_name, found.fingerprint, found.item_ids, found.sequences, path
    )


def load_interactions(dataset: str) -> Interactions:
    """DATASET as `data info` takes it: 'demo' or a prepared database path."""
    cfg = DataConfig(dataset=dataset)
    return interactions_of(open_dataset(cfg), cfg)


def _digest(parts: Iterable[str]) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() + b"\n")
    return h.hexdigest()[:16]


def leave_one_out(data: Interactions) -> Split:
    """Last item tests, second-last validates; users with fewer than 3 items only train."""
    train: dict[str, tuple[int, ...]] = {}
    validation: list[EvalCase] = []
    test: list[EvalCase] = []
    for user in sorted(data.sequences):
        seq = data.sequences[user]
        if len(seq) < 3:
            train[user] = seq
            continue
        train[user] = seq[:-2]
        validation.append(EvalCase(user, seq[:-2], seq[-2]))
        test.append(EvalCase(user, seq[:-1], seq[-1]))
    return Split("leave-one-out", train, tuple(validation), tuple(test), "leave-one-out")


def _visible(
    data: Interactions, samples: Sequence[Sample], *, strict: bool = True
) -> dict[str, tuple[int, ...]]:
    """Each user's sequence up to their sample's target. A sample whose target is not in its
    user's record is a DataError, or, not `strict`, has nothing to hide."""
    index = {item_id: i for i, item_id in enumerate(data.item_ids)}
    visible = dict(data.sequences)
    for s in samples:
        seq = data.sequences.get(s.user_id, ())
        target = index.get(s.target_id)
        if (target is None or target not in seq) and not strict:
            continue
        if target is None or target not in seq:
            raise DataError(
                f"sample {s.sample_id}: target {s.target_id!r} is not among user "
                f"{s.user_id!r}'s interactions in dataset {data.dataset_name!r}; "
                "was the sample set built from this dataset?"
            )
        cut = seq.index(target)  # first occurrence: the strictest cut
        visible[s.user_id] = visible[s.user_id][:cut]
    return visible


def campaign_split(data: Interactions, samples: Sequence[Sample]) -> Split:
    """Everything but each sample's target and later items; last visible item validates."""
    visible = _visible(data, samples)
    train: dict[str, tuple[int, ...]] = {}
    validation: list[EvalCase] = []
    for user in sorted(visible):
        seq = visible[user]
        if len(seq) < 3:
            train[user] = seq
            continue
        train[user] = seq[:-1]
        validation.append(EvalCase(user, seq[:-1], seq[-1]))
    key = "campaign-" + _digest(sorted(f"{s.user_id}\t{s.target_id}" for s in samples))
    return Split("campaign", train, tuple(validation), (), key)


def with_visible_popularity(
    dataset: Dataset, data: Interactions, visible: Mapping[str, Sequence[int]]
) -> Dataset:
    """`dataset` whose popularity counts and users' records leave out every interaction
    `visible` hides.

    Tools rank and filter by `dataset.popularity`; counted over all interactions it would
    include each held-out target. `visible` maps a user to a prefix of their sequence; the
    rest is subtracted, and `prefixes(n)` leaves out a user whose visible part is shorter
    than n (it would reach past the cut). The fingerprint (ids and titles) stays: the tools'
    catalog database is keyed by the counts too (tools/database.py), text vectors need not
    be rebuilt.
    """
    counts = Counter(dataset.popularity)
    for user, seen in visible.items():
        for item in data.sequences.get(user, ())[len(seen) :]:
            counts[data.item_ids[item]] -= 1
    shown = {user: len(seen) for user, seen in visible.items()}
    whole = dataset.prefixes

    def prefixes(length: int) -> dict[str, list[str]]:
        return {u: seq for u, seq in whole(length).items() if shown.get(u, length) >= length}

    # No whole sequences: they would show the held-out targets.
    return dataclasses.replace(
        dataset,
        popularity={i: max(0, n) for i, n in counts.items()},
        _prefixes=prefixes,
        _sequences=None,
    )


def campaign_dataset(
    dataset: Dataset, data: Interactions, samples: Sequence[Sample], *, strict: bool = True
) -> Dataset:
    """`dataset` as a campaign's systems may see it: popularity without samples' targets
    (`strict`: see _visible)."""
    return with_visible_popularity(dataset, data, _visible(data, samples, strict=strict))


class _Deferred(Mapping[str, int]):
    """A mapping computed on first use (the system view's popularity: most systems never
    read it, and computing it reads every interaction)."""

    def __init__(self, make: Callable[[], Mapping[str, int]]) -> None:
        self._make = make

    def _got(self) -> Mapping[str, int]:
        return self._make()

    def __getitem__(self, key: str) -> int:
        return self._got()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._got())

    def __len__(self) -> int:
        return len(self._got())


def deferred_campaign_dataset(
    dataset: Dataset, cfg: DataConfig, samples: Callable[[], Sequence[Sample]]
) -> Dataset:
    """campaign_dataset's view, built on first use of its popularity or prefixes: what a
    campaign's systems are given (SystemContext.dataset). The catalog is the dataset's.
    It is read mid-dialogue (the grounder, tools), so a hand-made sample whose target is not
    in its user's record hides nothing rather than failing there; the trainers' split
    (campaign_split) still refuses such a sample set before anything runs."""
    view = functools.cache(
        lambda: campaign_dataset(dataset, interactions_of(dataset, cfg), samples(), strict=False)
    )
    return dataclasses.replace(
        dataset,
        popularity=_Deferred(lambda: view().popularity),
        _prefixes=lambda length: view().prefixes(length),
        _sequences=None,  # whole sequences would show the held-out targets
    )
