"""DESIGN.md §3 "A fair contest": what each system may know of the user's past.

A system whose spec says `history = "pre-target"` gets the user's own interactions before
the target, unfiltered and in time order; MACRS and single-LLM get none. No input of a
system (its history, the prompts it sends, its tool and memory databases, its trained
models' training data) holds a sample's target or anything after it in that user's
sequence.

The data is a MovieLens-format release written here and prepared with `data prepare`'s
function. `history_len = 4`; the rows are in no time order in the file, and user 1's
items 2 and 7 share a timestamp (file order breaks the tie). Per user, by time:

    user  window (pre-target)   target  after the target   filtered (simulator's)
    1     1  2  7  3            8       11 12              1 2 7     (3 Alien: no
                                                                      Comedy/Crime/Drama)
    2     4  11 6  12           3       5                  4 11 12   (6 Amélie: no Sci-Fi)
    3     9  5  2  10           6       -                  9 2 10    (5 Up: no Comedy/Romance)
    4     1  11 4  12           10      -                  -         (ineligible: none share)
    5     9  6                  -       -                  -         (too short)

Release B is release A with each sample user's target rated differently and the items after
the target replaced (user 1 re-rates item 1 after the target): the windows, targets and
samples are the same, and so is everything a system may see. Each system run on both must
send the very same prompts and show the very same items: whatever differs came from
after the cut.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest

from macrs_sim import register_system
from macrs_sim.agents import registry
from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.registry import SystemOptions, SystemSpec
from macrs_sim.campaign import setup as campaign_setup
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import DataConfig, parse_scenario
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.movielens import prepare_movielens
from macrs_sim.data.samples import build_samples, eligible_samples
from macrs_sim.data.splits import Split, campaign_dataset, interactions_of
from macrs_sim.llm.base import message_text
from macrs_sim.llm.context import current_call
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.protocol import DialogueResult, DialogueState, ItemRef, Sample, SystemTurn
from macrs_sim.store import RunStore

MOVIES = """movieId,title,genres
1,Heat (1995),Action|Crime
2,Toy Story (1995),Animation|Comedy
3,Alien (1979),Horror|Sci-Fi
4,Aliens (1986),Action|Sci-Fi
5,Up (2009),Animation|Adventure
6,Amélie (2001),Comedy|Romance
7,"Godfather, The (1972)",Crime|Drama
8,Fargo (1996),Comedy|Crime|Drama
9,Shrek (2001),Animation|Comedy
10,Casablanca (1942),Drama|Romance
11,"Matrix, The (1999)",Action|Sci-Fi
12,Brazil (1985),Comedy|Sci-Fi
"""
_OTHERS = """4,1,3.0,7
4,11,3.0,8
4,4,3.0,9
4,12,3.0,10
4,10,3.0,11
5,9,2.0,1
5,6,2.0,2
"""
RATINGS_A = (
    "userId,movieId,rating,timestamp\n"
    "1,8,5.0,400\n1,11,3.0,500\n1,1,4.0,100\n1,2,3.5,200\n1,7,4.5,200\n1,12,2.0,600\n"
    "1,3,1.0,300\n"
    "2,4,4.0,10\n2,11,4.0,20\n2,6,2.0,30\n2,12,3.0,40\n2,3,5.0,50\n2,5,1.5,60\n"
    "3,9,4.0,1\n3,5,3.0,2\n3,2,4.0,3\n3,10,5.0,4\n3,6,4.5,5\n" + _OTHERS
)
# Targets rated 1.0; after the target user 1 re-rates Heat (1.0) and watches Up, user 2
# watches Shrek. The same number of rows: the dataset's fingerprint is the same too.
RATINGS_B = (
    "userId,movieId,rating,timestamp\n"
    "1,8,1.0,400\n1,1,1.0,500\n1,1,4.0,100\n1,2,3.5,200\n1,7,4.5,200\n1,5,5.0,600\n"
    "1,3,1.0,300\n"
    "2,4,4.0,10\n2,11,4.0,20\n2,6,2.0,30\n2,12,3.0,40\n2,3,1.0,50\n2,9,5.0,60\n"
    "3,9,4.0,1\n3,5,3.0,2\n3,2,4.0,3\n3,10,5.0,4\n3,6,1.0,5\n" + _OTHERS
)

WINDOW: dict[str, tuple[str, ...]] = {
    "1": ("1", "2", "7", "3"),
    "2": ("4", "11", "6", "12"),
    "3": ("9", "5", "2", "10"),
}
WINDOW_RATINGS = {"1": (4.0, 3.5, 4.5, 1.0), "2": (4.0, 4.0, 2.0, 3.0), "3": (4.0, 3.0, 4.0, 5.0)}
FILTERED: dict[str, tuple[str, ...]] = {
    "1": ("1", "2", "7"),
    "2": ("4", "11", "12"),
    "3": ("9", "2", "10"),
}
TARGET = {"1": "8", "2": "3", "3": "6"}
AFTER: dict[str, tuple[str, ...]] = {"1": ("11", "12"), "2": ("5",), "3": ()}
HELD_OUT = {u: {TARGET[u], *AFTER[u]} for u in TARGET}
TITLES = {
    "1": "Heat (1995)", "2": "Toy Story (1995)", "3": "Alien (1979)", "4": "Aliens (1986)",
    "5": "Up (2009)", "6": "Amélie (2001)", "7": "The Godfather (1972)", "8": "Fargo (1996)",
    "9": "Shrek (2001)", "10": "Casablanca (1942)", "11": "The Matrix (1999)",
    "12": "Brazil (1985)",
}  # fmt: skip
# Interactions per item without the samples' targets and what follows them (the same in
# A and B): e.g. Alien 1 (user 1; user 2's is a target), Fargo 0 (user 1's target).
VISIBLE_COUNTS = {
    "1": 2, "2": 2, "3": 1, "4": 2, "5": 1, "6": 2, "7": 1, "8": 0, "9": 2, "10": 2,
    "11": 2, "12": 2,
}  # fmt: skip
# The campaign split: each visible sequence; from 3 items on, the last one validates.
TRAIN = {
    "1": ("1", "2", "7"), "2": ("4", "11", "6"), "3": ("9", "5", "2"),
    "4": ("1", "11", "4", "12"), "5": ("9", "6"),
}  # fmt: skip
VALIDATION = {"1": "3", "2": "12", "3": "10", "4": "10"}


def data_config(db: Path, **kw: Any) -> dict[str, Any]:
    return {"dataset": str(db), "history_len": 4, "min_history": 2, "n_samples": 3,
            "filter_by_category": True, **kw}  # fmt: skip


def prepare(tmp_path: Path, name: str, ratings: str) -> Path:
    source = tmp_path / "src" / f"ml-{name}"
    source.mkdir(parents=True)
    (source / "movies.csv").write_text(MOVIES, encoding="utf-8")
    (source / "ratings.csv").write_text(ratings, encoding="utf-8")
    out = tmp_path / name / "ml.sqlite"
    out.parent.mkdir()
    prepare_movielens(source, out)
    return out


@pytest.fixture
def release_a(tmp_path: Path) -> Path:
    return prepare(tmp_path, "a", RATINGS_A)


@pytest.fixture
def release_b(tmp_path: Path) -> Path:
    return prepare(tmp_path, "b", RATINGS_B)


@pytest.fixture(autouse=True)
def user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Memory databases (RecMind) go to the user cache: keep them in tmp_path.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


# --- recording what each system is given ---------------------------------------------------

Prompt = tuple[str | None, str, int | None, tuple[str, ...]]


@dataclass
class Recording:
    samples: dict[str, Sample] = field(default_factory=dict)
    results: dict[str, DialogueResult] = field(default_factory=dict)  # by dialogue id
    contexts: dict[str, SystemContext] = field(default_factory=dict)  # by dialogue id
    built: dict[str, Any] = field(default_factory=dict)  # the system, by dialogue id
    prepared: list[Any] = field(default_factory=list)
    prompts: list[Prompt] = field(default_factory=list)  # (dialogue, role, turn, texts)
    splits: list[tuple[str, Split]] = field(default_factory=list)  # what each model fit on

    def sample_of(self, dialogue_id: str) -> Sample:
        return self.samples[self.results[dialogue_id].sample_id]

    def first_prompt(self, dialogue_id: str) -> str:
        """The first prompt the dialogue's system sent (the simulator's roles left out)."""
        return "\n".join(next(p[3] for p in self.prompts if p[0] == dialogue_id and "." in p[1]))


class Recorder:
    """Patches the campaign's seams once: the builder and `prepare` the setup imports, the
    scripted backend, and the rankers' fitting; each `run` records into a new Recording."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.now = Recording()
        import_ref = registry.import_ref

        def spying_ref(ref: str, spec: SystemSpec) -> Callable[..., Any]:
            made = import_ref(ref, spec)
            if ref == spec.build:

                def build(options: SystemOptions, ctx: SystemContext) -> Any:
                    system = made(options, ctx)
                    self.now.contexts[ctx.dialogue_id] = ctx
                    self.now.built[ctx.dialogue_id] = system
                    return system

                return build
            if ref == spec.prepare:

                def prepare(options: SystemOptions, ctx: Any) -> Any:
                    out = made(options, ctx)
                    self.now.prepared.append(out)
                    return out

                return prepare
            return made

        monkeypatch.setattr(campaign_setup, "import_ref", spying_ref)
        complete = ScriptedChatCompletionClient._complete

        async def recorded(client: ScriptedChatCompletionClient, messages: Any, **kw: Any) -> Any:
            ctx = current_call()
            texts = tuple(message_text(m) for m in messages)
            self.now.prompts.append((ctx.dialogue_id, ctx.role, ctx.turn, texts))
            return await complete(client, messages, **kw)

        monkeypatch.setattr(ScriptedChatCompletionClient, "_complete", recorded)
        from macrs_sim.rankers import train

        fit = train._fit

        def fitted(kind: str, data: Any, split: Split, params: Any, progress: Any) -> Any:
            self.now.splits.append((kind, split))
            return fit(kind, data, split, params, progress)

        monkeypatch.setattr(train, "_fit", fitted)

    async def run(self, db: Path, *systems: dict[str, Any], **data: Any) -> Recording:
        self.now = rec = Recording()
        cfg = data_config(db, **data)
        scenario = parse_scenario(
            {
                "name": "fair",
                "model": {"backend": "scripted"},
                "data": cfg,
                "simulator": {"kind": "agenda"},
                "protocol": {"max_turns": 2, "final_list_k": 3},
                "cache": {"enabled": False},
                "systems": list(systems),
            }
        )
        out = db.parent / f"runs-{len(list(db.parent.glob('runs-*')))}"
        result = await run_campaign_async(scenario, output_dir=out, progress=False, report=False)
        with RunStore.open(result.store_path) as store:
            rec.results = {r.dialogue_id: r for r in store.read_results()}
        samples = build_samples(open_dataset(DataConfig(**cfg)), DataConfig(**cfg))
        rec.samples = {s.sample_id: s for s in samples}
        assert all(r.status != "error" for r in rec.results.values()), [
            r.error for r in rec.results.values()
        ]
        return rec


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    registry.known_kinds()  # built-ins loaded first, so the copy holds them
    monkeypatch.setattr(registry, "_SPECS", dict(registry._SPECS))
    return Recorder(monkeypatch)


def sample_users(rec: Recording) -> dict[str, str]:
    """Dialogue id -> the sample's user, for every dialogue of the run."""
    return {d: rec.sample_of(d).user_id for d in rec.results}


def shown(r: DialogueResult) -> tuple[tuple[tuple[str | None, ...], ...], tuple[str | None, ...]]:
    """What the system showed: each turn's items and the fallback list."""
    turns = tuple(tuple(i.item_id for i in ex.system.items) for ex in r.exchanges)
    return turns, tuple(i.item_id for i in r.final_list)


def assert_split_holds_nothing_held_out(rec: Recording, expected_fits: int) -> None:
    assert len(rec.splits) == expected_fits
    ids = tuple(TITLES)  # the catalog's order is movies.csv's: ids "1".."12"
    for _, split in rec.splits:
        train = {u: tuple(ids[i] for i in seq) for u, seq in split.train.items()}
        assert train == TRAIN
        validation = {c.user_id: (tuple(ids[i] for i in c.history), ids[c.target])
                      for c in split.validation}  # fmt: skip
        assert validation == {u: (TRAIN[u], VALIDATION[u]) for u in VALIDATION}
        assert split.test == ()


def assert_same_inputs(a: Recording, b: Recording) -> None:
    """Release B changes only what follows the cut: every prompt and every item shown is
    the same (each prompt as often, in any order across dialogues)."""
    assert Counter(a.prompts) == Counter(b.prompts)
    assert {d: shown(r) for d, r in a.results.items()} == {
        d: shown(r) for d, r in b.results.items()
    }


# --- 1. what a system is given: the spy ------------------------------------------------------


class SpyOptions(SystemOptions):
    kind: Literal["fair_spy"] = "fair_spy"
    # A title to recommend every turn, as said (the dialogue loop grounds it); else it asks.
    says: str = ""


class BlindSpyOptions(SystemOptions):
    kind: Literal["fair_blind_spy"] = "fair_blind_spy"


class Spy:
    """Shows its SystemContext.history in every turn's explain (kept by the store)."""

    def __init__(self, options: SystemOptions, ctx: SystemContext) -> None:
        self.name, self.history = ctx.name, list(ctx.history)
        self.says = options.says if isinstance(options, SpyOptions) else ""

    async def respond(self, state: DialogueState) -> SystemTurn:
        explain: dict[str, Any] = {"history": self.history}
        if self.says:
            item = ItemRef(title=self.says)
            return SystemTurn(act="recommend", text=self.says, items=(item,), explain=explain)
        return SystemTurn(act="ask", text="What do you like?", explain=explain)

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        return []

    async def close(self) -> None:
        return None


def build_spy(options: SystemOptions, ctx: SystemContext) -> Spy:
    return Spy(options, ctx)


_SPY = f"{__name__}:build_spy"


def spy_specs() -> Iterator[SystemSpec]:
    yield SystemSpec(kind="fair_spy", options=SpyOptions, build=_SPY, uses_llm=False,
                     history="pre-target")  # fmt: skip
    yield SystemSpec(kind="fair_blind_spy", options=BlindSpyOptions, build=_SPY, uses_llm=False)


async def test_a_system_gets_the_unfiltered_pre_target_window_in_time_order(
    recorder: Recorder, release_a: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for spec in spy_specs():
        register_system(spec)
    # The spy's module is imported under its own name by the builder: give it this one.
    monkeypatch.setattr(campaign_setup, "import_ref", _this_module_ref(recorder))
    rec = await recorder.run(
        release_a, {"name": "Spy", "kind": "fair_spy"}, {"name": "Blind", "kind": "fair_blind_spy"}
    )
    assert {s.user_id: s.target_id for s in rec.samples.values()} == TARGET
    # The simulator's persona history is filtered to the target's genres ...
    assert {s.user_id: s.history for s in rec.samples.values()} == FILTERED
    assert {s.user_id: s.pre_target for s in rec.samples.values()} == WINDOW
    by_system: dict[str, dict[str, list[list[str]]]] = {}
    for d, r in rec.results.items():
        user = rec.sample_of(d).user_id
        given = [ex.system.explain["history"] for ex in r.exchanges]
        by_system.setdefault(r.system, {})[user] = given
        assert len(given) == 2  # max_turns, both asked
    # ... the system is given the window itself: time order, ties in file order (user 1's
    # Toy Story before The Godfather), Alien and Amélie and Up kept, never a held-out item.
    assert by_system["Spy"] == {u: [list(WINDOW[u])] * 2 for u in WINDOW}
    assert any(WINDOW[u] != FILTERED[u] for u in WINDOW)
    assert by_system["Blind"] == {u: [[]] * 2 for u in WINDOW}


def _this_module_ref(recorder: Recorder) -> Callable[[str, SystemSpec], Callable[..., Any]]:
    """`import_ref` with this test module's spy builder for `_SPY` (pytest imports test
    files by path, not by package name), the recorder's otherwise."""
    spying = vars(campaign_setup)["import_ref"]

    def ref(ref: str, spec: SystemSpec) -> Callable[..., Any]:
        return build_spy if ref == _SPY else spying(ref, spec)

    return ref


async def test_a_sample_set_without_windows_gets_them_from_the_dataset(
    recorder: Recorder, release_a: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sample set written before `pre_target` was recorded: the window comes from the
    database (the user's first history_len items, when the next one is the target)."""
    from macrs_sim.data.sample_set import SampleSetHeader, write_sample_set

    for spec in spy_specs():
        register_system(spec)
    monkeypatch.setattr(campaign_setup, "import_ref", _this_module_ref(recorder))
    cfg = DataConfig(**data_config(release_a))
    dataset = open_dataset(cfg)
    old = [s.model_copy(update={"pre_target": None, "opening": "Any film for tonight?"})
           for s in build_samples(dataset, cfg)]  # fmt: skip
    path = tmp_path / "old.jsonl"
    header = SampleSetHeader.model_validate(
        {"dataset": dataset.name, "dataset_fingerprint": dataset.fingerprint,
         "data": cfg.model_dump(), "simulator": {}, "n_samples": len(old)}
    )  # fmt: skip
    write_sample_set(path, header, old)
    rec = await recorder.run(release_a, {"name": "Spy", "kind": "fair_spy"}, sample_set=str(path))
    given = {rec.sample_of(d).user_id: r.exchanges[0].system.explain["history"]
             for d, r in rec.results.items()}  # fmt: skip
    assert given == {u: list(WINDOW[u]) for u in WINDOW}


# --- 2. no input of any system holds a held-out item ----------------------------------------


async def test_macrs_and_single_llm_get_no_history(recorder: Recorder, release_a: Path) -> None:
    rec = await recorder.run(
        release_a, {"name": "MACRS", "kind": "macrs"}, {"name": "Single", "kind": "single_llm"}
    )
    assert len(rec.results) == 6
    assert {d: ctx.history for d, ctx in rec.contexts.items()} == {d: () for d in rec.results}
    for d, r in rec.results.items():
        first = rec.first_prompt(d)
        user = rec.sample_of(d).user_id
        if r.system == "MACRS":
            assert "Browsing history: (none)" in first
        # Nothing of the user's past reaches the first prompt (only the opening does).
        named = [i for i in (*WINDOW[user], *HELD_OUT[user]) if TITLES[i].split(" (")[0] in first]
        assert named == [], (d, first)
    assert rec.splits == [] and rec.prepared == []


async def test_macrs_and_single_llm_send_the_same_prompts_whatever_follows_the_cut(
    recorder: Recorder, release_a: Path, release_b: Path
) -> None:
    systems = ({"name": "MACRS", "kind": "macrs"}, {"name": "Single", "kind": "single_llm"})
    assert_same_inputs(
        await recorder.run(release_a, *systems), await recorder.run(release_b, *systems)
    )


BASELINES = (
    {"name": "Pop", "kind": "popularity"},
    {"name": "ItemCF", "kind": "itemcf"},
    {"name": "SASRec", "kind": "sasrec", "params": {"epochs": 2, "dim": 8}},
)


async def test_trained_baselines_see_the_window_and_train_without_held_out_items(
    recorder: Recorder, release_a: Path, release_b: Path
) -> None:
    a = await recorder.run(release_a, *BASELINES)
    assert len(a.results) == 9
    for d, system in a.built.items():
        user = a.sample_of(d).user_id
        given = tuple(system._item_ids[i] for i in system._history)
        assert a.contexts[d].history == given == WINDOW[user]
        turns, final = shown(a.results[d])
        # Never a watched item: Alien for user 1 too (the filtered list lacks it).
        assert not {i for t in turns for i in t} & set(WINDOW[user])
        assert not set(final) & set(WINDOW[user])
    assert_split_holds_nothing_held_out(a, expected_fits=3)
    assert sorted(kind for kind, _ in a.splits) == ["itemcf", "popularity", "sasrec"]
    assert_same_inputs(a, await recorder.run(release_b, *BASELINES))


def memory_rows(db: Path) -> dict[str, list[tuple[str, float | None, int]]]:
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute(
            "SELECT user_id, item_id, rating, position FROM user_ratings ORDER BY user_id, position"
        ).fetchall()
    out: dict[str, list[tuple[str, float | None, int]]] = {}
    for user, item, rating, pos in rows:
        out.setdefault(str(user), []).append((str(item), rating, int(pos)))
    return out


def item_counts(db: Path) -> dict[str, int]:
    with closing(sqlite3.connect(db)) as conn:
        return {
            str(i): int(n) for i, n in conn.execute("SELECT item_id, n_interactions FROM items")
        }


async def test_recmind_memory_holds_each_users_window_and_names_the_user(
    recorder: Recorder, release_a: Path, release_b: Path
) -> None:
    system = {"name": "RecMind", "kind": "recmind"}
    a = await recorder.run(release_a, system)
    (res,) = a.prepared
    # Personal memory: every user's visible record with its ratings, position 1 the oldest:
    # a sample user's window (no target, nothing after it, no rating given later: user 1
    # re-rates Heat in B), users 4 and 5 (no sample) whole.
    windows = {u: list(zip(WINDOW[u], WINDOW_RATINGS[u], strict=True)) for u in WINDOW}
    others = {"4": [(i, 3.0) for i in ("1", "11", "4", "12", "10")], "5": [("9", 2.0), ("6", 2.0)]}
    assert memory_rows(res.database) == {
        u: [(i, r, n) for n, (i, r) in enumerate(rows, 1)] for u, rows in (windows | others).items()
    }
    # World knowledge: counts without the targets and what follows them.
    assert item_counts(res.database) == VISIBLE_COUNTS
    assert dict(res.dataset.popularity) == VISIBLE_COUNTS
    for d, r in a.results.items():
        user = a.sample_of(d).user_id
        assert a.contexts[d].history == WINDOW[user]
        # The task names the sample's user, whose rows the SQL tool reads (not "guest").
        assert a.built[d].user_id == user
        assert f"talking with user {user}." in a.first_prompt(d)
        assert all(ex.system.explain["user_id"] == user for ex in r.exchanges)
    b = await recorder.run(release_b, system)
    (res_b,) = b.prepared
    assert memory_rows(res_b.database) == memory_rows(res.database)
    assert_same_inputs(a, b)


async def test_interecagent_memory_models_and_tools_hold_no_held_out_item(
    recorder: Recorder, release_a: Path, release_b: Path
) -> None:
    system = {"name": "IRA", "kind": "interecagent",
              "ranker_params": {"position": "false", "epochs": "2", "dim": "8"}}  # fmt: skip
    a = await recorder.run(release_a, system)
    (prepared,) = a.prepared
    assert dict(prepared.resources.popularity) == VISIBLE_COUNTS
    assert item_counts(prepared.resources.database) == VISIBLE_COUNTS
    for d in a.results:
        user = a.sample_of(d).user_id
        assert a.contexts[d].history == WINDOW[user]
        assert a.built[d].executor.memory.long_term_likes == WINDOW[user]
        assert "history: 4 items" in a.first_prompt(d)
    # The ranking tool's SASRec and the item-CF neighbours.
    assert_split_holds_nothing_held_out(a, expected_fits=2)
    assert sorted(kind for kind, _ in a.splits) == ["itemcf", "sasrec"]
    assert_same_inputs(a, await recorder.run(release_b, system))


def rendered_window(user: str) -> str:
    genres = {"1": "Action, Crime", "2": "Animation, Comedy", "3": "Horror, Sci-Fi",
              "4": "Action, Sci-Fi", "5": "Animation, Adventure", "6": "Comedy, Romance",
              "7": "Crime, Drama", "9": "Animation, Comedy", "10": "Drama, Romance",
              "11": "Action, Sci-Fi", "12": "Comedy, Sci-Fi"}  # fmt: skip
    lines = [f"- {i}: {TITLES[i]} | {genres[i]}" for i in WINDOW[user]]
    return "The user's watch history (oldest first):\n" + "\n".join(lines) + "\n"


async def test_toolrec_surrogate_user_models_hold_no_held_out_item(
    recorder: Recorder, release_a: Path, release_b: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from macrs_sim.rankers.torch import toolrec_train

    train_toolrec = toolrec_train.train_toolrec

    def spied(data: Any, dataset: Any, cache_dir: Any, params: Any, split: Any, *a: Any) -> Any:
        recorder.now.splits.append(("toolrec-retriever", split))
        return train_toolrec(data, dataset, cache_dir, params, split, *a)

    monkeypatch.setattr(toolrec_train, "train_toolrec", spied)
    system = {"name": "ToolRec", "kind": "toolrec",
              "ranker_params": {"epochs": "2", "dim": "8"},
              "retriever_params": {"tune_epochs": "1"}}  # fmt: skip
    a = await recorder.run(release_a, system)
    for d in a.results:
        user = a.sample_of(d).user_id
        assert a.contexts[d].history == a.built[d].history == WINDOW[user]
        # The surrogate user reads the window, Alien (1979) for user 1 included.
        assert rendered_window(user) in a.first_prompt(d)
    # The base SASRec, then the retriever on the same split (stage 1 is that SASRec).
    assert [kind for kind, _ in a.splits] == ["sasrec", "toolrec-retriever"]
    assert_split_holds_nothing_held_out(a, expected_fits=2)
    assert_same_inputs(a, await recorder.run(release_b, system))


def test_a_re_rated_item_is_never_the_target_of_its_own_window(tmp_path: Path) -> None:
    # User 1 rates Heat, Toy Story, Heat again, then Alien: with history_len 2 the third
    # item, Heat, would be the target although the window (Heat, Toy Story) holds it.
    ratings = "userId,movieId,rating,timestamp\n1,1,4.0,1\n1,2,4.0,2\n1,1,5.0,3\n1,3,4.0,4\n"
    db = prepare(tmp_path, "rerated", ratings)
    cfg = DataConfig(
        **data_config(db, history_len=2, min_history=1, n_samples=1, filter_by_category=False)
    )
    dataset = open_dataset(cfg)
    # The user is not eligible: a target the window already holds is no held-out item.
    assert eligible_samples(dataset.prefixes(3), dataset.catalog, cfg, {}) == []


# Release A with user 1's Alien (300) and The Matrix (500) swapped: the same targets, counts
# and catalog (the same fingerprint), but Alien now follows user 1's target.
RATINGS_SWAPPED = RATINGS_A.replace("1,11,3.0,500", "1,11,3.0,300").replace(
    "1,3,1.0,300", "1,3,1.0,500"
)


async def test_a_database_prepared_again_never_reuses_a_model_trained_past_its_cut(
    recorder: Recorder, tmp_path: Path
) -> None:
    """The checkpoint cache beside a database is keyed by what the model trained on: the
    same path prepared again from other ratings (same counts, same catalog, same targets)
    trains again, rather than loading a model that saw what now follows a target."""
    db = prepare(tmp_path, "a", RATINGS_A)
    first = await recorder.run(db, {"name": "ItemCF", "kind": "itemcf"})
    assert [kind for kind, _ in first.splits] == ["itemcf"]
    source = tmp_path / "src" / "ml-a"
    (source / "ratings.csv").write_text(RATINGS_SWAPPED, encoding="utf-8")
    prepare_movielens(source, db, overwrite=True)
    again = await recorder.run(db, {"name": "ItemCF", "kind": "itemcf"})
    assert {s.user_id: s.pre_target for s in again.samples.values()} == {
        **WINDOW,
        "1": ("1", "2", "7", "11"),
    }
    assert {s.user_id: s.target_id for s in again.samples.values()} == TARGET
    (fit,) = again.splits
    assert tuple(TITLES)[fit[1].train["1"][-1]] == "7"  # 1 2 7 trains, The Matrix validates
    assert [tuple(TITLES)[c.target] for c in fit[1].validation if c.user_id == "1"] == ["11"]


def test_the_campaign_view_of_the_dataset_ends_sample_users_records_at_the_cut(
    release_a: Path,
) -> None:
    cfg = DataConfig(**data_config(release_a))
    dataset = open_dataset(cfg)
    seen = campaign_dataset(dataset, interactions_of(dataset, cfg), build_samples(dataset, cfg))
    assert seen.popularity == VISIBLE_COUNTS
    whole_5 = {u: [*WINDOW[u], TARGET[u]] for u in WINDOW} | {"4": ["1", "11", "4", "12", "10"]}
    assert dataset.prefixes(5) == whole_5
    # Only user 4 (no sample) has five visible items; the sample users end at their window.
    assert seen.prefixes(5) == {"4": ["1", "11", "4", "12", "10"]}
    assert seen.prefixes(4) == {u: list(WINDOW[u]) for u in WINDOW} | {"4": ["1", "11", "4", "12"]}
    assert seen.prefixes(2) == {u: list(w[:2]) for u, w in WINDOW.items()} | {
        "4": ["1", "11"], "5": ["9", "6"],
    }  # fmt: skip


async def test_the_dataset_a_system_is_given_counts_no_held_out_interaction(
    recorder: Recorder, release_a: Path
) -> None:
    """SystemContext.dataset is the campaign's view (campaign_dataset), not the whole one."""
    rec = await recorder.run(release_a, {"name": "Pop", "kind": "popularity"})
    assert {d: dict(ctx.dataset.popularity) for d, ctx in rec.contexts.items()} == {
        d: VISIBLE_COUNTS for d in rec.results
    }


async def test_the_dataset_a_system_is_given_shows_no_users_sequence_past_the_cut(
    recorder: Recorder, release_a: Path
) -> None:
    rec = await recorder.run(release_a, {"name": "Pop", "kind": "popularity"})
    for d, ctx in rec.contexts.items():
        user = rec.sample_of(d).user_id
        for length in (5, 6, 7):
            record = ctx.dataset.prefixes(length).get(user, [])
            assert not set(record) & HELD_OUT[user], (user, record)


# Two films called Heat; users 1 and 2 each have Heat (1986) as their target (after Toy
# Story and Up), users 3 and 4 watched Heat (1995), user 5 Heat (1986). Counted over every
# interaction Heat (1986) leads 3 to 2; without the targets Heat (1995) leads 2 to 1.
HEAT_MOVIES = (
    "movieId,title,genres\n1,Heat (1986),Action\n2,Heat (1995),Action|Crime\n"
    "3,Toy Story (1995),Animation|Comedy\n4,Up (2009),Animation|Adventure\n"
)
HEAT_RATINGS = (
    "userId,movieId,rating,timestamp\n"
    "1,3,4.0,1\n1,4,4.0,2\n1,1,4.0,3\n2,4,4.0,1\n2,3,4.0,2\n2,1,4.0,3\n"
    "3,3,4.0,1\n3,2,4.0,2\n4,4,4.0,1\n4,2,4.0,2\n5,3,4.0,1\n5,1,4.0,2\n"
)


async def test_a_title_two_films_share_is_not_grounded_by_counting_the_targets(
    recorder: Recorder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "src" / "ml-heat"
    source.mkdir(parents=True)
    (source / "movies.csv").write_text(HEAT_MOVIES, encoding="utf-8")
    (source / "ratings.csv").write_text(HEAT_RATINGS, encoding="utf-8")
    db = tmp_path / "heat" / "ml.sqlite"
    db.parent.mkdir()
    prepare_movielens(source, db)
    for spec in spy_specs():
        register_system(spec)
    monkeypatch.setattr(campaign_setup, "import_ref", _this_module_ref(recorder))
    rec = await recorder.run(
        db,
        {"name": "Spy", "kind": "fair_spy", "says": "Heat"},
        history_len=2,
        min_history=1,
        n_samples=2,
        filter_by_category=False,
    )
    assert {s.user_id: s.target_id for s in rec.samples.values()} == {"1": "1", "2": "1"}
    grounded = {r.sample_id: r.exchanges[0].system.items[0].item_id for r in rec.results.values()}
    assert grounded == {"s-1": "2", "s-2": "2"}  # Heat (1995): the more watched, as seen
