"""Every bad input the project knows of: one `error:` line, exit code 2, no traceback,
and no file left behind (issue 17 §2).

Each row runs the real CLI, in-process through `main(argv)` (fast) or, for a few, in a
subprocess, from a scratch folder holding only the files the row writes. The folder's
file list after the run must equal the list before it.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from macrs_sim.cli import describe_os_error, main
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.movielens import prepare_movielens
from macrs_sim.data.sample_set import SampleSetHeader
from macrs_sim.protocol import Item, Sample
from macrs_sim.store import RunStore

REPO = Path(__file__).resolve().parents[1]
HAS_PROC = Path("/proc/self/status").is_file()
# chmod does not stop root from writing: the read-only-folder row runs only for other users.
NOT_ROOT = os.geteuid() != 0
RUN = ("run", "s.toml", "--output-dir", "runs", "--no-progress")

GOOD = """name = "t"
[model]
backend = "scripted"
[data]
n_samples = 2
[protocol]
max_turns = 2
[[systems]]
name = "MACRS"
kind = "macrs"
"""

Setup = Callable[[Path, Path], None]  # (scratch folder, a prepared MovieLens database)


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]
    expected: str  # a piece of the error line
    files: dict[str, str | bytes] = field(default_factory=dict)
    setup: Setup | None = None
    subprocess: bool = False
    skip_unless: bool = True  # False: the machine lacks what the row needs (/proc)
    absent: str | None = None  # must appear nowhere in the output (a secret)
    allowed: tuple[str, ...] = ()  # files the command may leave (in its output folder)


def edit(old: str, new: str, base: str = GOOD) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


def run_case(
    id: str, toml: str, expected: str, files: dict[str, str | bytes] | None = None, **kw: object
) -> Case:
    return Case(id, RUN, expected, {"s.toml": toml, **(files or {})}, **kw)  # type: ignore[arg-type]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- files the rows need ----------------------------------------------------------------------


def damage(path: Path, *, keep_pages: int = 2) -> None:
    """Overwrite the middle third of a SQLite file's pages with garbage; the header stays."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    pages = len(data) // page
    assert pages >= 6, f"{path} has only {pages} pages: too small to damage in the middle"
    first = max(keep_pages, pages // 3)
    for n in range(first, 2 * pages // 3 + 1):
        data[n * page : (n + 1) * page] = bytes((n * 37 + i * 11) % 251 for i in range(page))
    path.write_bytes(bytes(data))


def write_release_zip(path: Path, n_users: int = 60, per_user: int = 30) -> Path:
    movies = ["movieId,title,genres"] + [
        f'{m},"Film {m:03d}, The ({1950 + m % 70})",Drama|Comedy' for m in range(1, 201)
    ]
    ratings = ["userId,movieId,rating,timestamp"]
    for u in range(1, n_users + 1):
        ratings += [f"{u},{(u * 7 + s * 3) % 200 + 1},4.0,{1000 + s}" for s in range(per_user)]
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-test/movies.csv", "\n".join(movies) + "\n")
        z.writestr("ml-test/ratings.csv", "\n".join(ratings) + "\n")
    return path


@pytest.fixture(scope="module")
def ml_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("ml")
    out = folder / "ml-test.sqlite"
    prepare_movielens(write_release_zip(folder / "ml-test.zip"), out)
    return out


def damaged_dataset(tmp: Path, ml_db: Path) -> None:
    (tmp / "ml.sqlite").write_bytes(ml_db.read_bytes())
    damage(tmp / "ml.sqlite", keep_pages=4)


def copy_dataset(tmp: Path, ml_db: Path) -> None:
    (tmp / "ml.sqlite").write_bytes(ml_db.read_bytes())


def make_store(path: Path, n_samples: int = 400) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with RunStore.create(path) as store:
        store.write_samples(
            [
                Sample(sample_id=f"s{i}", user_id=f"u{i}", history=("a",) * 20, target_id="b")
                for i in range(n_samples)
            ]
        )
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def damaged_store(tmp: Path, _: Path) -> None:
    make_store(tmp / "run" / "store.sqlite")
    damage(tmp / "run" / "store.sqlite")


def store_of_format(version: str) -> Setup:
    def setup(tmp: Path, _: Path) -> None:
        make_store(tmp / "run" / "store.sqlite", n_samples=1)
        with sqlite3.connect(tmp / "run" / "store.sqlite") as conn:
            conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
        conn.close()

    return setup


def _demo_header(n: int, **changes: object) -> str:
    ds = open_dataset(DataConfig())
    header = SampleSetHeader(
        dataset=ds.name,
        dataset_fingerprint=ds.fingerprint,
        data={},
        simulator={},
        n_samples=n,
        created_at="2026-01-01T00:00:00Z",
    )
    return header.model_copy(update=changes).model_dump_json()


def _demo_sample(i: int, **changes: object) -> str:
    ids = [item.item_id for item in open_dataset(DataConfig()).catalog][:6]
    sample = Sample(
        sample_id=f"s{i}",
        user_id=f"u{i}",
        history=tuple(ids[:5]),
        target_id=ids[5],
        opening="Something funny, please.",
    )
    return sample.model_copy(update=changes).model_dump_json()


def sample_set(lines: Callable[[], list[str]]) -> Setup:
    def setup(tmp: Path, _: Path) -> None:
        (tmp / "set.jsonl").write_text("\n".join(lines()) + "\n", encoding="utf-8")

    return setup


SAMPLE_SET_TOML = edit("n_samples = 2", 'sample_set = "set.jsonl"')
ML_TOML = edit("n_samples = 2", 'dataset = "ml.sqlite"\nmin_history = 1')


def prompt_override(text: str, name: str = "planner") -> dict[str, str | bytes]:
    return {
        "s.toml": edit('name = "t"\n', 'name = "t"\nprompts_dir = "p"\n'),
        f"p/{name}.txt": text,
    }


PLANNER_OK = (REPO / "macrs_sim" / "prompts" / "planner.txt").read_text(encoding="utf-8")


def openai_scenario(userinfo: str = "") -> Setup:
    """An OpenAI-model scenario whose endpoint is a closed local port (chosen when run)."""

    def setup(tmp: Path, _: Path) -> None:
        url = f"http://{userinfo}127.0.0.1:{closed_port()}/v1"
        toml = edit('backend = "scripted"', f'backend = "openai"\nmodel = "m"\nbase_url = "{url}"')
        (tmp / "s.toml").write_text(toml, encoding="utf-8")

    return setup


def _foreign_sqlite(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()


def foreign_store(tmp: Path, _: Path) -> None:
    (tmp / "run").mkdir()
    _foreign_sqlite(tmp / "run" / "store.sqlite")


def read_only_folder(tmp: Path, _: Path) -> None:
    (tmp / "ro").mkdir()
    (tmp / "ro").chmod(0o500)


def small_release_zip(tmp: Path, _: Path) -> None:
    write_release_zip(tmp / "ml.zip", n_users=2, per_user=3)


# --- the table ---------------------------------------------------------------------------------

SCENARIO_CASES = [
    # Spelling, kinds, types, TOML.
    run_case("unknown-field", edit("n_samples", "n_sampels"), "data.n_sampels: unknown field"),
    run_case("unknown-table", GOOD + "[protocoll]\nmax_turns = 3\n", "protocoll: unknown field"),
    run_case(
        "wrong-kind",
        edit('kind = "macrs"', 'kind = "macr"'),
        'systems[0]: unknown kind "macr"; known: http, interecagent, itemcf, macrs',
    ),
    run_case("missing-name", edit('name = "t"\n', ""), "name: required field is missing"),
    run_case("bad-toml", GOOD + "[oops\n", "not valid TOML"),
    run_case("bad-toml-value", edit("n_samples = 2", "n_samples = "), "not valid TOML"),
    run_case(
        "wrong-type", edit("n_samples = 2", 'n_samples = "ten"'), "data.n_samples: Input should"
    ),
    run_case(
        "unknown-backend",
        edit('"scripted"', '"gpt"'),
        'model: unknown backend "gpt"; known: embedded, openai, scripted',
    ),
    run_case(
        "openai-without-model",
        edit('backend = "scripted"', 'backend = "openai"'),
        "model.openai.model: required field is missing",
    ),
    run_case(
        "two-ways-to-name-endpoints",
        edit(
            'backend = "scripted"',
            'backend = "openai"\nmodel = "m"\nbase_url = "http://a/v1"\nbase_urls = ["http://b/v1"]',
        ),
        "give base_url or base_urls, not both",
    ),
    run_case("no-systems", GOOD.split("[[systems]]")[0], "systems: required field is missing"),
    run_case(
        "empty-systems",
        edit('name = "t"\n', 'name = "t"\nsystems = []\n', GOOD.split("[[systems]]")[0]),
        "systems: List should have at least 1 item",
    ),
    run_case(
        "repeated-system",
        GOOD + '[[systems]]\nname = "MACRS"\nkind = "single_llm"\n',
        "system names must be unique, repeated: MACRS",
    ),
    run_case(
        "ablation-on-single-llm",
        edit('kind = "macrs"', 'kind = "single_llm"\nstrategy_reflection = false'),
        'systems[0] (kind "single_llm"): unknown field "strategy_reflection"',
    ),
    run_case(
        "buckets-not-ending-at-one",
        edit("n_samples = 2", "popularity_buckets = [0.5, 0.9]"),
        "popularity_buckets must end at 1.0",
    ),
    run_case(
        "buckets-not-increasing",
        edit("n_samples = 2", "popularity_buckets = [0.5, 0.2, 1.0]"),
        "popularity_buckets must be increasing fractions",
    ),
    run_case(
        "catalog-with-database",
        edit("n_samples = 2", 'dataset = "x.sqlite"\ncatalog = "c.jsonl"'),
        "catalog applies only to dataset = 'demo'",
    ),
    run_case(
        "unknown-sampling", edit("n_samples = 2", 'sampling = "weird"'), "data.sampling: Input"
    ),
    run_case(
        "unknown-executor", GOOD + '[campaign]\nexecutor = "slurm"\n', "campaign.executor: Input"
    ),
    run_case("fault-rate-over-one", GOOD + "[faults]\nrate = 2\n", "faults.rate: must be ≤ 1,"),
    run_case("unknown-fault", GOOD + '[faults]\nkinds = ["explode"]\n', "faults.kinds.0: Input"),
    run_case(
        "negative-price",
        GOOD + "[campaign.prices.m]\nprompt = -1\ncompletion = 1\n",
        "campaign.prices.m.prompt: Input should be greater than or equal to 0",
    ),
    run_case("zero-budget", GOOD + "[campaign]\nbudget_usd = 0\n", "campaign.budget_usd: Input"),
    run_case("zero-turns", edit("max_turns = 2", "max_turns = 0"), "protocol.max_turns: Input"),
    run_case(
        "zero-concurrency", GOOD + "[campaign]\nconcurrency = 0\n", "campaign.concurrency: Input"
    ),
    run_case("judge-zero-pairs", GOOD + "[judge]\nmax_pairs = 0\n", "judge.max_pairs: Input"),
    # Numbers no study needs (issue 17: max_turns = 1000000000 ran forever).
    run_case(
        "huge-max-turns",
        edit("max_turns = 2", "max_turns = 1000000000"),
        "protocol.max_turns: must be ≤ 100 (no study needs more), found 1000000000",
    ),
    run_case(
        "huge-n-samples",
        edit("n_samples = 2", "n_samples = 2000000"),
        "data.n_samples: must be ≤ 1,000,000 (no study needs more)",
    ),
    run_case(
        "huge-concurrency",
        GOOD + "[campaign]\nconcurrency = 100000\n",
        "campaign.concurrency: must be ≤ 10,000 (no study needs more)",
    ),
    run_case(
        "huge-final-list",
        edit("max_turns = 2", "final_list_k = 5000"),
        "protocol.final_list_k: must be ≤ 1,000 (no study needs more)",
    ),
    run_case(
        "huge-n-ctx",
        edit('backend = "scripted"', 'backend = "embedded"\nn_ctx = 2000000'),
        "model.embedded.n_ctx: must be ≤ 1,048,576 (no study needs more)",
    ),
    run_case(
        "huge-max-tokens",
        edit('backend = "scripted"', 'backend = "openai"\nmodel = "m"\nmax_tokens = 99999999'),
        "model.openai.max_tokens: must be ≤ 1,048,576",
    ),
    run_case(
        "huge-timeout",
        edit('backend = "scripted"', 'backend = "openai"\nmodel = "m"\ntimeout_s = 1e9'),
        "model.openai.timeout_s: must be ≤ 86,400 (no study needs more)",
    ),
    run_case(
        "huge-retries",
        edit("max_turns = 2", "max_structured_retries = 100000"),
        "protocol.max_structured_retries: must be ≤ 100",
    ),
    run_case(
        "huge-history",
        edit("n_samples = 2", "history_len = 50000"),
        "data.history_len: must be ≤ 10,000",
    ),
    run_case(
        "huge-ray-actors",
        GOOD + "[campaign]\nray_actors = 1000000\n",
        "campaign.ray_actors: must be ≤ 10,000",
    ),
    run_case(
        "hot-temperature", edit("max_turns = 2", "temperature = 5"), "protocol.temperature: must"
    ),
    run_case(
        "embedded-negative-seed",
        edit('backend = "scripted"', 'backend = "embedded"\nseed = -1'),
        "model.embedded.seed: Input should be greater than or equal to 0",
    ),
    # Path traversal through the scenario name (the run directory is output_dir/NAME-time).
    run_case(
        "name-traversal",
        edit('name = "t"', 'name = "../../x"'),
        "name: '../../x' is not a plain name: use letters, digits, '-', '_' and '.' only",
    ),
    run_case("name-absolute", edit('name = "t"', 'name = "/tmp/x"'), "is not a plain name"),
    run_case("name-dot", edit('name = "t"', 'name = "."'), "'.' is not a plain name"),
    run_case("name-dotdot", edit('name = "t"', 'name = ".."'), "'..' is not a plain name"),
    run_case("name-backslash", edit('name = "t"', 'name = "a\\\\b"'), "is not a plain name"),
    run_case("name-space", edit('name = "t"', 'name = "my run"'), "is not a plain name"),
    run_case("name-empty", edit('name = "t"', 'name = ""'), "'' is not a plain name"),
    run_case("name-newline", edit('name = "t"', 'name = "a\\nb"'), "is not a plain name"),
    run_case(
        "name-too-long",
        edit('name = "t"', f'name = "{"x" * 150}"'),
        "name: must be at most 100 characters",
    ),
    # Files the scenario names.
    run_case(
        "embedded-model-missing",
        edit('backend = "scripted"', 'backend = "embedded"\npath = "/nowhere/model.gguf"'),
        "/nowhere/model.gguf",
    ),
    run_case(
        "more-samples-than-users",
        edit("n_samples = 2", "n_samples = 100000"),
        "data.n_samples = 100000: only",
    ),
    run_case(
        "catalog-missing",
        edit("n_samples = 2", 'catalog = "none.jsonl"'),
        "none.jsonl: catalog file not found",
    ),
    run_case(
        "catalog-empty",
        edit("n_samples = 2", 'catalog = "c.jsonl"'),
        "catalog is empty",
        {"c.jsonl": "\n"},
    ),
    run_case(
        "catalog-not-json",
        edit("n_samples = 2", 'catalog = "c.jsonl"'),
        "c.jsonl:1: not a valid item record",
        {"c.jsonl": "{nope\n"},
    ),
    run_case(
        "catalog-not-utf8",
        edit("n_samples = 2", 'catalog = "c.jsonl"'),
        "c.jsonl:2: the catalog is not valid UTF-8 text",
        {"c.jsonl": b'{"item_id": "a"}\n{"title": "Am\xe9lie"}\n'},
    ),
    run_case(
        "dataset-missing",
        edit("n_samples = 2", 'dataset = "none.sqlite"'),
        "data.dataset: none.sqlite: no such database",
    ),
    run_case(
        "dataset-not-sqlite",
        edit("n_samples = 2", 'dataset = "d.sqlite"'),
        "data.dataset: d.sqlite: not a prepared dataset database",
        {"d.sqlite": "hello, not a database\n" * 200},
    ),
    run_case(
        "dataset-is-a-folder",
        edit("n_samples = 2", 'dataset = "d"'),
        "data.dataset: d: no such database",
        {"d/x": ""},
    ),
    run_case(
        "dataset-damaged",
        ML_TOML,
        "data.dataset: ml.sqlite: damaged database",
        setup=damaged_dataset,
    ),
    run_case(
        "dataset-too-few-users",
        edit("min_history = 1", "min_history = 1\nn_samples = 500", ML_TOML),
        "data.n_samples = 500: only 60 users are eligible",
        setup=copy_dataset,
    ),
    run_case(
        "sample-set-missing",
        SAMPLE_SET_TOML,
        "set.jsonl: no such file; build it with `macrs-sim samples build SCENARIO`",
    ),
    run_case(
        "sample-set-not-utf8",
        SAMPLE_SET_TOML,
        "set.jsonl:2: the sample set is not valid UTF-8 text",
        {"set.jsonl": b'{"format": "x"}\n{"opening": "caf\xe9"}\n'},
    ),
    run_case(
        "sample-set-empty",
        SAMPLE_SET_TOML,
        "set.jsonl: empty file, expected a sample-set header",
        {"set.jsonl": "\n\n"},
    ),
    run_case(
        "sample-set-no-header",
        SAMPLE_SET_TOML,
        "set.jsonl:1: not a sample-set file",
        {"set.jsonl": '{"hello": 1}\n'},
    ),
    run_case(
        "sample-set-other-version",
        SAMPLE_SET_TOML,
        "set.jsonl:1: sample-set version 9, expected 1",
        setup=sample_set(lambda: [_demo_header(1, version=9), _demo_sample(1)]),
    ),
    run_case(
        "sample-set-other-dataset",
        SAMPLE_SET_TOML,
        "was built from dataset 'demo' (elsewhere), but the scenario's dataset is 'demo'",
        setup=sample_set(lambda: [_demo_header(1, dataset_fingerprint="elsewhere")]),
    ),
    run_case(
        "sample-set-unknown-item",
        SAMPLE_SET_TOML,
        "set.jsonl:2: item 'nowhere' is not in the dataset's catalog",
        setup=sample_set(lambda: [_demo_header(1), _demo_sample(1, target_id="nowhere")]),
    ),
    run_case(
        "sample-set-truncated",
        SAMPLE_SET_TOML,
        "header says 3 samples, the file holds 1 (truncated or edited?)",
        setup=sample_set(lambda: [_demo_header(3), _demo_sample(1)]),
    ),
    run_case(
        "sample-set-repeated-ids",
        SAMPLE_SET_TOML,
        "set.jsonl: repeated sample ids",
        setup=sample_set(lambda: [_demo_header(2), _demo_sample(1), _demo_sample(1)]),
    ),
    run_case(
        "sample-set-bad-record",
        SAMPLE_SET_TOML,
        "set.jsonl:2: bad sample (",
        setup=sample_set(lambda: [_demo_header(1), '{"sample_id": 5}']),
    ),
    run_case(
        "sample-set-no-opening",
        SAMPLE_SET_TOML,
        "set.jsonl:2: sample 's1' has no opening utterance",
        setup=sample_set(lambda: [_demo_header(1), _demo_sample(1, opening="")]),
    ),
    # Prompt overrides: checked when loaded, before any run directory is made.
    run_case(
        "prompts-dir-missing",
        edit('name = "t"\n', 'name = "t"\nprompts_dir = "nowhere"\n'),
        "prompts_dir nowhere: folder not found",
    ),
    Case(
        "prompt-unknown-placeholder",
        RUN,
        "p/planner.txt [user]: unknown placeholder $mood (this section has: $",
        prompt_override(PLANNER_OK.replace("$dialogue_history", "$dialogue_history $mood", 1)),
    ),
    Case(
        "prompt-missing-placeholder",
        RUN,
        "p/planner.txt [user]: placeholder $dialogue_history is missing (this section needs:",
        prompt_override(PLANNER_OK.replace("$dialogue_history", "the dialogue")),
    ),
    Case(
        "prompt-stray-dollar",
        RUN,
        "p/planner.txt [user]: a '$' not followed by a placeholder name (write $$",
        prompt_override(PLANNER_OK.replace("$dialogue_history", "$dialogue_history costs $5", 1)),
    ),
    Case(
        "prompt-missing-section",
        RUN,
        "p/planner.txt: missing section [system]",
        prompt_override(PLANNER_OK.split("[user]")[0].replace("[system]", "[sistem]")),
    ),
    Case(
        "prompt-unknown-file",
        RUN,
        "p/planer.txt: no such prompt (expected one of: final_list.txt,",
        prompt_override("[system]\nhi\n", name="planer"),
    ),
    Case(
        "prompt-not-utf8",
        RUN,
        "p/planner.txt:2: the prompt file is not valid UTF-8 text",
        {**prompt_override(""), "p/planner.txt": b"[system]\ncaf\xe9\n"},
    ),
    Case(
        "prompt-no-sections",
        RUN,
        "prompt 'p/planner.txt': no [section] headers found",
        prompt_override("just words\n"),
    ),
]

OUTPUT_CASES = [
    Case(
        "output-dir-under-a-file",
        ("run", "s.toml", "--output-dir", "afile/runs", "--no-progress"),
        "error: afile/runs: Not a directory (part of this path is a file where a folder is",
        {"s.toml": GOOD, "afile": "a regular file\n"},
    ),
    Case(
        "output-dir-in-scenario-under-a-file",
        ("run", "s.toml", "--no-progress"),
        ": Not a directory (part of this path is a file where a folder is needed)",
        {"s.toml": GOOD + '[campaign]\noutput_dir = "afile/runs"\n', "afile": "x\n"},
    ),
    Case(
        "output-dir-under-proc",
        ("run", "s.toml", "--output-dir", "/proc/macrs-sim-test/runs", "--no-progress"),
        "/proc/macrs-sim-test: No such file or directory",
        {"s.toml": GOOD},
        skip_unless=HAS_PROC,
    ),
    Case(
        "output-dir-is-a-file",
        ("run", "s.toml", "--output-dir", "afile", "--no-progress"),
        "--output-dir afile: not a folder",
        {"s.toml": GOOD, "afile": "x\n"},
    ),
    Case(
        "output-dir-read-only",
        ("run", "s.toml", "--output-dir", "ro/runs", "--no-progress"),
        "ro/runs: Permission denied",
        {"s.toml": GOOD},
        setup=read_only_folder,
        skip_unless=NOT_ROOT,
    ),
    Case(
        "samples-out-under-a-file",
        ("samples", "build", "s.toml", "--out", "afile/set.jsonl", "--no-progress"),
        "afile: File exists (part of this path is a file where a folder is needed)",
        {"s.toml": GOOD, "afile": "x\n"},
        # The response cache of the sample preparation lives in the scenario's output folder.
        allowed=("runs", "runs/llm_cache.sqlite"),
    ),
    Case(
        "scenario-under-proc",
        ("run", "/proc/self/status", "--output-dir", "runs"),
        "/proc/self/status: not valid TOML",
        skip_unless=HAS_PROC,
    ),
    Case(
        "scenario-unreadable-proc-file",
        ("run", "/proc/self/mem", "--output-dir", "runs"),
        "/proc/self/mem: cannot read the scenario file",
        skip_unless=HAS_PROC,
    ),
]

DATA_CASES = [
    Case("info-missing", ("data", "info", "none.sqlite"), "none.sqlite: no such database"),
    Case(
        "info-not-sqlite",
        ("data", "info", "d.sqlite"),
        "d.sqlite: not a prepared dataset database",
        {"d.sqlite": "text\n" * 500},
    ),
    Case(
        "info-foreign-sqlite",
        ("data", "info", "other.sqlite"),
        "other.sqlite: not a prepared dataset database",
        setup=lambda tmp, _: _foreign_sqlite(tmp / "other.sqlite"),
    ),
    Case(
        "info-damaged",
        ("data", "info", "ml.sqlite"),
        "ml.sqlite: damaged database",
        setup=damaged_dataset,
    ),
    Case(
        "info-under-proc",
        ("data", "info", "/proc/self/status"),
        "/proc/self/status: not a prepared dataset database",
        skip_unless=HAS_PROC,
    ),
    Case(
        "prepare-not-a-release",
        ("data", "prepare", "movielens", "src", "--out", "out.sqlite"),
        "expected movies.csv + ratings.csv or movies.dat + ratings.dat",
        {"src/readme.txt": "hello"},
    ),
    Case(
        "prepare-missing-source",
        ("data", "prepare", "movielens", "nope", "--out", "out.sqlite"),
        "nope: not found",
    ),
    Case(
        "prepare-garbage-zip",
        ("data", "prepare", "movielens", "ml.zip", "--out", "out.sqlite"),
        "ml.zip: corrupt zip archive",
        {"ml.zip": b"this is not a zip" * 20},
    ),
    Case(
        "prepare-not-utf8",
        ("data", "prepare", "movielens", "ml", "--out", "out.sqlite"),
        "movies.csv:2: not valid UTF-8 text",
        {
            "ml/movies.csv": b"movieId,title,genres\n1,Am\xe9lie (2001),Comedy\n",
            "ml/ratings.csv": "userId,movieId,rating,timestamp\n1,1,4.0,5\n",
        },
    ),
    Case(
        "prepare-out-is-a-folder",
        ("data", "prepare", "movielens", "ml.zip", "--out", "out"),
        "is a folder; expected the path of the database file",
        {"out/keep": ""},
        setup=small_release_zip,
    ),
    Case(
        "prepare-ratings-header-only",
        ("data", "prepare", "movielens", "ml", "--out", "out.sqlite"),
        "ratings.csv",
        {
            "ml/movies.csv": "movieId,title,genres\n1,Heat (1995),Crime\n",
            "ml/ratings.csv": "userId,movieId,rating,timestamp\n",
        },
    ),
    Case(
        "prepare-every-rating-dropped",
        ("data", "prepare", "movielens", "ml", "--out", "out.sqlite"),
        "ratings.csv",
        {
            "ml/movies.csv": "movieId,title,genres\n1,Heat (1995),Crime\n",
            "ml/ratings.csv": "userId,movieId,rating,timestamp\n1,99,4.0,5\n",
        },
    ),
    Case(
        "samples-build-existing",
        ("samples", "build", "s.toml", "--out", "set.jsonl"),
        "set.jsonl: a sample set is already there (pass --overwrite to replace it)",
        {"s.toml": GOOD, "set.jsonl": "keep me\n"},
    ),
    Case(
        "samples-build-too-few-users",
        ("samples", "build", "s.toml", "--no-progress"),
        "data.n_samples = 100000: only",
        {"s.toml": edit("n_samples = 2", "n_samples = 100000")},
    ),
    Case(
        "samples-build-bad-name",
        ("samples", "build", "s.toml"),
        "is not a plain name",
        {"s.toml": edit('name = "t"', 'name = "../up"')},
    ),
    Case("models-check-missing", ("models", "check", "nope.toml"), "scenario file not found"),
    Case(
        "models-check-unreachable",
        ("models", "check", "s.toml"),
        "endpoint unreachable",
        setup=openai_scenario(),
    ),
]


REPORT_CASES = [
    Case("report-missing", ("report", "nowhere"), "nowhere: run directory not found"),
    Case(
        "report-not-a-run", ("report", "d"), "d: not a run directory (no store.sqlite)", {"d/x": ""}
    ),
    Case(
        "report-store-not-sqlite",
        ("report", "run"),
        "store.sqlite: not a macrs-sim run store",
        {"run/store.sqlite": "not sqlite\n" * 400},
    ),
    Case(
        "report-store-foreign",
        ("report", "run"),
        "store.sqlite: not a macrs-sim run store",
        setup=foreign_store,
    ),
    Case(
        "report-store-other-format",
        ("report", "run"),
        "run store format 99, this macrs-sim reads formats 1 and 2",
        setup=store_of_format("99"),
    ),
    Case(
        "report-store-damaged",
        ("report", "run"),
        "run/store.sqlite: damaged run store (",
        setup=damaged_store,
    ),
    Case(
        "compare-store-damaged",
        ("compare", "run", "--out", "cmp"),
        "damaged run store",
        setup=damaged_store,
    ),
    Case("compare-missing", ("compare", "nowhere", "--out", "cmp"), "run directory not found"),
    Case("judge-missing", ("judge", "nowhere"), "nowhere: run directory not found"),
]

ARGV_CASES = [
    Case("no-command", (), "the following arguments are required: command"),
    Case("unknown-command", ("fly",), "invalid choice: 'fly'"),
    Case("run-without-scenario", ("run",), "the following arguments are required: scenario"),
    Case("run-unknown-executor", ("run", "s.toml", "--executor", "slurm"), "invalid choice"),
    Case("run-unknown-option", ("run", "s.toml", "--fast"), "unrecognized arguments: --fast"),
    Case("judge-pairs-not-int", ("judge", "r", "--max-pairs", "x"), "invalid int value: 'x'"),
    Case("data-without-subcommand", ("data",), "required: data_cmd"),
    Case("prepare-unknown-kind", ("data", "prepare", "netflix", "x"), "invalid choice: 'netflix'"),
]

SUBPROCESS_CASES = [
    Case(
        "sub-missing-scenario",
        ("run", "nope.toml"),
        "nope.toml: scenario file not found",
        subprocess=True,
    ),
    Case(
        "sub-scenario-not-utf8",
        RUN,
        "s.toml:2: the scenario file is not valid UTF-8 text (invalid continuation byte",
        {"s.toml": GOOD.replace('"t"', '"t"\n# caf\xe9').encode("latin-1")},
        subprocess=True,
    ),
    Case(
        "sub-credential-in-base-url",
        RUN,
        "model.base_url http://***@127.0.0.1:",
        setup=openai_scenario("user:s3cr3t-pass@"),
        subprocess=True,
        absent="s3cr3t",
    ),
    Case("sub-no-command", (), "the following arguments are required: command", subprocess=True),
    Case(
        "sub-huge-max-turns",
        RUN,
        "must be ≤ 100 (no study needs more)",
        {"s.toml": edit("max_turns = 2", "max_turns = 1000000000")},
        subprocess=True,
    ),
]

# --- issue 27, group 6: damaged stores and values a study cannot mean ---------------------------


def _demo_ids() -> list[str]:
    return [item.item_id for item in open_dataset(DataConfig()).catalog][:6]


def _held_out_set(**changes: object) -> Setup:
    """A one-sample set whose sample gets `changes`; "TARGET" in a tuple is its target."""

    def lines() -> list[str]:
        target = _demo_ids()[5]
        fixed = {
            k: tuple(target if v == "TARGET" else v for v in vs) if isinstance(vs, tuple) else vs
            for k, vs in changes.items()
        }
        return [_demo_header(1), _demo_sample(0, **fixed)]

    return sample_set(lines)


def _edited_run(sql: str) -> Setup:
    """A finished hand-made run (tests/analysis/handmade_runs.py) with one cell edited."""

    def setup(tmp: Path, _: Path) -> None:
        from tests.analysis.handmade_runs import Script, make_run, make_sample

        systems: list[dict[str, object]] = [{"name": "LLM", "kind": "single_llm"}]
        scripts = [Script("LLM", "s-1", ("R",), final=2)]
        make_run(tmp, "run", systems, [make_sample("s-1", "m1")], scripts)
        with sqlite3.connect(tmp / "run" / "store.sqlite") as conn:
            conn.execute(sql)
        conn.close()

    return setup


def _run_store_as_dataset(tmp: Path, _: Path) -> None:
    make_store(tmp / "ml.sqlite", n_samples=1)


def _catalog(title: str, aka: tuple[str, ...] = ()) -> dict[str, str | bytes]:
    item = Item(item_id="m1", title=title, year=1995, genres=("Crime",), aka=aka)
    toml = edit("n_samples = 2", 'catalog = "c.jsonl"\nn_samples = 2')
    return {"s.toml": toml, "c.jsonl": item.model_dump_json() + "\n"}


def _release(ratings: str, title: str = "Heat (1995)") -> dict[str, str | bytes]:
    return {
        "ml/movies.csv": f"movieId,title,genres\n1,{title},Crime\n",
        "ml/ratings.csv": f"userId,movieId,rating,timestamp\n{ratings}",
    }


PREPARE = ("data", "prepare", "movielens", "ml", "--out", "out.sqlite")
SCALE = "is outside MovieLens's scale; expected 0.5 to 5 stars"
ONE_LINE_NAME = "systems.0.name: must be one line without control characters, found"

ISSUE27_G6_CASES = [
    Case(
        "run-output-dir-empty",
        ("run", "s.toml", "--output-dir", "", "--no-progress"),
        "--output-dir '': empty; give a folder, or leave the option out",
        {"s.toml": GOOD},
    ),
    run_case(
        "scenario-output-dir-empty",
        edit("[data]\n", '[campaign]\noutput_dir = " "\n[data]\n'),
        'campaign.output_dir: empty; give a folder (default "runs")',
    ),
    Case(
        "chat-output-dir-blank",
        ("chat", "s.toml", "--output-dir", " "),
        "--output-dir ' ': empty; give a folder",
        {"s.toml": GOOD},
    ),
    run_case(
        "system-name-empty",
        edit('name = "MACRS"', 'name = ""'),
        "systems.0.name: must not be empty (it names the system in reports)",
    ),
    run_case("system-name-blank", edit('name = "MACRS"', 'name = "  "'), "must not be empty"),
    run_case(
        "system-name-two-lines",
        edit('name = "MACRS"', 'name = "MA\\nCRS"'),
        f"{ONE_LINE_NAME} U+000A in 'MA\\nCRS'",
    ),
    run_case(
        "system-name-nul",
        edit('name = "MACRS"', 'name = "MACRS\\u0000"'),
        f"{ONE_LINE_NAME} U+0000",
    ),
    Case(
        "sample-set-empty-history",
        RUN,
        "set.jsonl:2: sample 's0' has an empty history; expected at least one item",
        {"s.toml": SAMPLE_SET_TOML},
        setup=_held_out_set(history=()),
    ),
    Case(
        "sample-set-target-in-history",
        RUN,
        "set.jsonl:2: sample 's0' holds its target",
        {"s.toml": SAMPLE_SET_TOML},
        setup=_held_out_set(history=("TARGET",)),
    ),
    Case(
        "sample-set-target-in-pre-target",
        RUN,
        "in its own history; expected the target held out",
        {"s.toml": SAMPLE_SET_TOML},
        setup=_held_out_set(pre_target=("TARGET",)),
    ),
    run_case(
        "catalog-title-nul",
        "",
        "c.jsonl:1: item 'm1' has a title holding a control character (U+0000): 'Heat\\x00'",
        _catalog("Heat\x00"),
    ),
    run_case(
        "catalog-aka-escape",
        "",
        "c.jsonl:1: item 'm1' has a title holding a control character (U+001B)",
        _catalog("Heat", aka=("\x1b]0;owned\x07",)),
    ),
    run_case("catalog-title-blank", "", "item 'm1' has an empty title", _catalog("   ")),
    Case(
        "prepare-title-nul",
        PREPARE,
        "movies.csv:2: movie 1's title holds a control character (U+0000); expected one line",
        _release("1,1,4.0,5\n", title="Heat\x00 (1995)"),
    ),
    Case(
        "prepare-rating-inf",
        PREPARE,
        f"ratings.csv:3: rating inf {SCALE}",
        _release("1,1,4.0,5\n1,1,inf,6\n"),
    ),  # fmt: skip
    Case(
        "prepare-rating-nan",
        PREPARE,
        "ratings.csv:2: rating: expected a number, found 'NaN'",
        _release("1,1,NaN,5\n"),
    ),  # fmt: skip
    Case(
        "prepare-rating-too-high",
        PREPARE,
        f"ratings.csv:2: rating 7.5 {SCALE}",
        _release("1,1,7.5,5\n"),
    ),  # fmt: skip
    Case(
        "prepare-rating-zero", PREPARE, f"ratings.csv:2: rating 0.0 {SCALE}", _release("1,1,0,5\n")
    ),  # fmt: skip
    Case(
        "prepare-rating-dat-negative",
        PREPARE,
        f"ratings.dat:1: rating -1.0 {SCALE}",
        {"ml/movies.dat": "1::Heat (1995)::Crime\n", "ml/ratings.dat": "1::1::-1::97\n"},
    ),
    Case(
        "dataset-is-a-run-store",
        ("run", "s.toml", "--output-dir", "runs", "--no-progress"),
        "ml.sqlite: a macrs-sim run store, not a dataset database",
        {"s.toml": ML_TOML},
        setup=_run_store_as_dataset,
    ),
    Case(
        "data-info-on-a-run-store",
        ("data", "info", "ml.sqlite"),
        "ml.sqlite: a macrs-sim run store, not a dataset database",
        setup=_run_store_as_dataset,
    ),
    Case(
        "report-store-bad-json-cell",
        ("report", "run"),
        "run/store.sqlite: damaged run store: table dialogues, row LLM:s-1: Expecting property",
        setup=_edited_run("UPDATE dialogues SET final_list_json = '[{' WHERE rowid = 1"),
    ),
    Case(
        "view-store-unknown-status",
        ("view", "run", "--out", "site"),
        "table dialogues, row LLM:s-1: status: Input should be 'success', 'failure' or 'error'",
        setup=_edited_run("UPDATE dialogues SET status = 'won' WHERE rowid = 1"),
    ),
    Case(
        "view-store-unknown-run-status",
        ("view", "run", "--out", "site"),
        "table meta, row status: unknown run status 'done'",
        setup=_edited_run("UPDATE meta SET value = 'done' WHERE key = 'status'"),
    ),
]

# --- issue 27 group 3: a server's words in an `error:` line are data, never control codes ---

# Sets the terminal's title, clears the screen, turns the rest right to left.
HOSTILE_MESSAGE = "model \x1b]0;pwned\x07not found\x1b[2J \u202eevil"


def _hostile_server() -> str:
    """A local OpenAI-compatible server that lists model "m" and refuses every chat request
    with HTTP 400 and HOSTILE_MESSAGE; it stops itself after 5 s without a request."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, body: object) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._send(200, {"object": "list", "data": [{"id": "m", "object": "model"}]})

        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("content-length") or 0))
            self._send(400, {"error": {"message": HOSTILE_MESSAGE, "type": "invalid_request"}})

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        timeout = 5.0
        idle = False

        def handle_timeout(self) -> None:
            self.idle = True

    server = Server(("127.0.0.1", 0), Handler)

    def serve() -> None:
        while not server.idle:
            server.handle_request()
        server.server_close()

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/v1"


def hostile_server_scenario(tmp: Path, _: Path) -> None:
    url = _hostile_server()
    toml = edit('backend = "scripted"', f'backend = "openai"\nmodel = "m"\nbase_url = "{url}"')
    (tmp / "s.toml").write_text(toml, encoding="utf-8")


# The line shows the server's words with every escape sequence and control dropped whole.
HOSTILE_SHOWN = "HTTP 400 model not found evil"
ISSUE27_G3_CASES = [
    Case(
        "server-message-escape-codes-models-check",
        ("models", "check", "s.toml"),
        HOSTILE_SHOWN,
        setup=hostile_server_scenario,
        absent="\x1b",
    ),
    Case(
        "server-message-escape-codes-run",
        RUN,
        HOSTILE_SHOWN,
        setup=hostile_server_scenario,
        absent="\x1b",
    ),
]

# --- issue 27 group 1: a system's wrong options fail before anything is written ----------------


def system_case(id: str, system: str, expected: str, **kw: object) -> Case:
    """The scenario GOOD with its one system replaced by `system` (TOML lines)."""
    toml = GOOD.split("[[systems]]")[0] + '[[systems]]\nname = "S"\n' + system + "\n"
    return run_case(id, toml, expected, **kw)


def models_train(*args: str) -> tuple[str, ...]:
    return ("models", "train", *args, "--no-progress")


ISSUE27_G1_CASES = [
    system_case(
        "interecagent-unknown-ranker-param",
        'kind = "interecagent"\nranker_params = {dimm = "8"}',
        'systems[0] (kind "interecagent"): ranker_params: dimm: Extra inputs are not permitted',
    ),
    system_case(
        "interecagent-heads-not-dividing-dim",
        'kind = "interecagent"\nranker_params = {heads = "3"}',
        'systems[0] (kind "interecagent"): ranker_params: heads: 3 does not divide dim = 64',
    ),
    system_case(
        "interecagent-absurd-dim",
        'kind = "interecagent"\nranker_params = {dim = "1000000"}',
        "ranker_params: dim: Input should be less than or equal to 4096",
    ),
    system_case(
        "interecagent-params-of-another-ranker",
        'kind = "interecagent"\nranker = "bpr"\nranker_params = {dim = "8"}',
        'ranker_params: only ranker "sasrec" takes them (ranker is "bpr")',
    ),
    system_case(
        "toolrec-unknown-retriever-param",
        'kind = "toolrec"\nretriever_params = {tune_lrr = "1"}',
        'systems[0] (kind "toolrec"): retriever_params: tune_lrr: Extra inputs are not permitted',
    ),
    system_case(
        "toolrec-negative-epochs",
        'kind = "toolrec"\nranker_params = {epochs = "-1"}',
        "ranker_params: epochs: Input should be greater than or equal to 1",
    ),
    system_case(
        "toolrec-retriever-params-unused",
        'kind = "toolrec"\nretriever = "ranker"\nretriever_params = {tune_lr = "0.1"}',
        'retriever_params: only retriever "trained" takes them (retriever is "ranker")',
    ),
    system_case(
        "toolrec-out-of-memory",
        'kind = "toolrec"\nranker_params = {dim = "4096", batch_size = "100000"}',
        "need about 2,455 GiB to train on",
    ),
    system_case(
        "sasrec-heads-not-dividing-dim",
        'kind = "sasrec"\nparams = {heads = 3}',
        'systems[0] (kind "sasrec"): sasrec parameter heads: 3 does not divide dim = 64',
    ),
    system_case(
        "ranker-lr-inf",
        'kind = "ranker"\nranker = "bpr"\nparams = {lr = inf}',
        "bpr parameter lr: Input should be a finite number",
    ),
    system_case(
        "sasrec-seed-past-63-bits",
        'kind = "sasrec"\nparams = {seed = "36893488147419103232"}',
        "sasrec parameter seed: Input should be less than or equal to 9223372036854775807",
    ),
    system_case(
        "recmind-web-key-unset",
        'kind = "recmind"\nsearch_backend = "web"\nweb_api_key_env = "MACRS_SIM_UNSET_KEY_27"',
        'web_api_key_env: search_backend "web" needs an API key in $MACRS_SIM_UNSET_KEY_27',
    ),
    system_case(
        "http-url-bad-port",
        'kind = "http"\nurl = "http://127.0.0.1:99999/crs"',
        'systems[0] (kind "http"): url: not a valid http(s) URL (bad port or host)',
    ),
    system_case(
        "http-url-no-host",
        'kind = "http"\nurl = "http://user:s3cret@/crs"',
        "url: not a valid http(s) URL (expected http://HOST[:PORT]/PATH)",
        absent="s3cret",
    ),
    Case(
        "models-train-seed-past-64-bits",
        models_train("sasrec", "demo", "--seed", str(2**64)),
        "--seed 18446744073709551616: expected a whole number from 0 to 9223372036854775807",
    ),
    Case(
        "models-train-heads-3",
        models_train("sasrec", "demo", "--set", "heads=3"),
        "sasrec parameter heads: 3 does not divide dim = 64",
    ),
    Case(
        "models-train-huge-max-len",
        models_train("sasrec", "demo", "--set", "max_len=2000000000"),
        "sasrec parameter max_len: Input should be less than or equal to 4096",
    ),
    Case(
        "models-train-lr-inf",
        models_train("bpr", "demo", "--set", "lr=inf"),
        "bpr parameter lr: Input should be a finite number",
    ),
    Case(
        "models-train-toolrec-tune-lr-nan",
        models_train("toolrec", "demo", "--set", "tune_lr=nan"),
        "toolrec parameter tune_lr: Input should be a finite number",
    ),
    Case(
        "models-train-itemcf-negative-seed",
        models_train("itemcf", "demo", "--seed", "-1"),
        "--seed -1: expected a whole number from 0 to 9223372036854775807",
    ),
]

CASES = SCENARIO_CASES + OUTPUT_CASES + DATA_CASES + REPORT_CASES + ARGV_CASES + SUBPROCESS_CASES
CASES += ISSUE27_G1_CASES
CASES += ISSUE27_G6_CASES
CASES += ISSUE27_G3_CASES


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _subprocess(argv: tuple[str, ...], cwd: Path) -> tuple[int, str, str]:
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-m", "macrs_sim.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": path},
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_the_table_is_complete() -> None:
    assert len(CASES) >= 70
    assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_gives_one_line(
    case: Case,
    tmp_path: Path,
    ml_db: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if not case.skip_unless:
        pytest.skip("this machine cannot pose this bad input (no /proc, or running as root)")
    for rel, content in case.files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    if case.setup is not None:
        case.setup(tmp_path, ml_db)
    before = _files(tmp_path)
    if case.subprocess:
        rc, out, err = _subprocess(case.argv, tmp_path)
    else:
        monkeypatch.chdir(tmp_path)
        try:
            rc = main(list(case.argv))
        except SystemExit as stop:  # argparse's usage errors
            rc = int(stop.code or 0)
        out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert rc == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert case.expected in lines[0], lines[0]
    assert out == ""
    assert case.absent is None or case.absent not in out + err
    assert _files(tmp_path) == before | set(case.allowed)


def test_a_corrupt_cache_warns_once_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "cache.sqlite").write_bytes(b"not a database " * 1000)
    toml = GOOD + '[cache]\npath = "cache.sqlite"\n[campaign]\nconcurrency = 2\n'
    (tmp_path / "s.toml").write_text(toml.replace("n_samples = 2", "n_samples = 4"))
    rc, out, err = _subprocess(RUN, tmp_path)
    assert rc == 0, err
    assert "Traceback" not in out + err
    warnings = [line for line in err.splitlines() if "response cache" in line]
    assert warnings == [
        f"response cache {tmp_path / 'cache.sqlite'} unusable (file is not a database):"
        " running without the cache"
    ]
    assert (tmp_path / "cache.sqlite").read_bytes() == b"not a database " * 1000
    assert "incomplete" not in out and "finished in" in out


@pytest.mark.parametrize(
    ("err", "line"),
    [
        (
            NotADirectoryError(20, "Not a directory", "afile/runs/t-1"),
            "afile/runs/t-1: Not a directory"
            " (part of this path is a file where a folder is needed)",
        ),
        (
            PermissionError(13, "Permission denied", "ro/runs", None, "ro/x"),
            "ro/runs -> ro/x: Permission denied (a file or folder could not be read, made or"
            " written)",
        ),
        (OSError("disk\nfull"), "disk full (a file or folder could not be read, made or written)"),
    ],
)
def test_os_errors_read_as_one_line(err: OSError, line: str) -> None:
    assert describe_os_error(err) == line
