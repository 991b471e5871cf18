"""An outside package extends all four registries through entry points only (issue 29).

tests/extension_pkg is a real package: it is built and installed with pip (offline, from a
copy in tmp_path) into a folder that only the subprocesses below have on PYTHONPATH, so
its system, simulator, backend and ranker are found the way a user's package would be:
through importlib.metadata's entry points, never by importing it from here.

The campaign's numbers are worked out by hand. Demo catalog order: m001 Nosferatu, m002
Metropolis, m003 All Quiet on the Western Front, m004 Dracula, m005 King Kong, m006 It
Happened One Night, m007 Modern Times, ..., m010 Gone with the Wind. Every sample's user
has seen m001; targets s1 m002, s2 m004, s3 m010; 3 turns, fallback list of 3.
- First (first_unseen) shows m002, m003, m004 in turns 1-3: s1 at turn 1, s2 at turn 3,
  s3 fails, its list m005-m007 misses m010. Success 2/3; avg turns (1 + 3 + 4) / 3 (a
  failure counts max_turns + 1 = 4); Hit@5 2/3.
- Single (single_llm on the canned backend) names Metropolis every turn: s1 at turn 1;
  s2 and s3 fail and get the canned list King Kong, Gone with the Wind, Modern Times,
  which holds s3's target. Success 1/3; avg turns (1 + 4 + 4) / 3 = 3; Hit@5 2/3.
  Calls: 1 + 3 + 3 = 7 turns and 2 lists, all to the canned model; the user makes none.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.sample_set import SampleSetHeader, write_sample_set
from macrs_sim.data.splits import leave_one_out, load_interactions
from macrs_sim.protocol import Sample
from macrs_sim.store import RunStore

# One worker for the module: the package is installed by pip once (the module fixture `site`).
pytestmark = pytest.mark.xdist_group("extension-package")
PKG = Path(__file__).parent / "extension_pkg"
PKG_NAME = "macrs_sim_example_ext"

RESPOND = {"step1": "-", "step2": "-", "step3": "-", "act": "recommend",
           "item_title": "Metropolis", "response": "Try Metropolis."}  # fmt: skip
FINAL = {"titles": ["King Kong", "Gone with the Wind", "Modern Times"]}
SCENARIO = """name = "ext"
[model]
backend = "canned"
replies = {{ "single_llm.respond" = {respond}, "final_list" = {final} }}
[data]
dataset = "demo"
sample_set = "samples.jsonl"
[simulator]
kind = "first_yes"
decline = "Not that one, thanks."
[protocol]
max_turns = 3
final_list_k = 3
[[systems]]
name = "First"
kind = "first_unseen"
[[systems]]
name = "Single"
kind = "single_llm"
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package installed by pip into its own folder, built from a copy (no build/ or
    egg-info is left in the working tree)."""
    root = tmp_path_factory.mktemp("ext")
    src = root / "pkg"
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    pip = [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
           "--no-index", "--no-cache-dir", "--disable-pip-version-check", "--quiet",
           "--target", str(root / "site"), str(src)]  # fmt: skip
    done = subprocess.run(pip, capture_output=True, text=True, timeout=120, cwd=root)
    assert done.returncode == 0, done.stderr
    return root / "site"


def cli(args: list[str], cwd: Path, site: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(cwd / "cache")}
    command = [sys.executable, "-m", "macrs_sim.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


def write_campaign(folder: Path) -> Path:
    dataset = open_dataset(DataConfig(dataset="demo"))
    samples = [
        Sample(sample_id=f"s{n}", user_id=f"u{n}", history=("m001",), pre_target=("m001",),
               target_id=target, opening="A film, please.")
        for n, target in enumerate(("m002", "m004", "m010"), 1)
    ]  # fmt: skip
    header = SampleSetHeader(dataset=dataset.name, dataset_fingerprint=dataset.fingerprint,
                             data={}, simulator={}, n_samples=len(samples))  # fmt: skip
    write_sample_set(folder / "samples.jsonl", header, samples)
    text = SCENARIO.format(
        respond=json.dumps(json.dumps(RESPOND)), final=json.dumps(json.dumps(FINAL))
    )
    (folder / "scenario.toml").write_text(text)
    return folder / "scenario.toml"


def test_the_package_is_not_importable_here(site: Path) -> None:
    # Only the subprocesses see it: what they find comes through the entry points.
    assert importlib.util.find_spec(PKG_NAME) is None
    assert (site / PKG_NAME / "system.py").is_file()
    assert not list(PKG.glob("build")) and not list(PKG.rglob("*.egg-info"))


def test_a_campaign_runs_the_package_system_simulator_and_backend(
    site: Path, tmp_path: Path
) -> None:
    scenario = write_campaign(tmp_path)
    done = cli(["run", str(scenario), "--output-dir", "runs", "--no-progress"], tmp_path, site)
    assert done.returncode == 0, done.stderr
    (run_dir,) = (tmp_path / "runs").glob("ext-*")
    with (run_dir / "results.csv").open() as f:
        rows = {r["system"]: r for r in csv.DictReader(f)}
    columns = ("success_rate", "avg_turns", "hit@5")
    assert sorted(rows) == ["First", "Single"]
    assert [float(rows["First"][c]) for c in columns] == pytest.approx([2 / 3, 8 / 3, 2 / 3])
    assert [float(rows["Single"][c]) for c in columns] == pytest.approx([1 / 3, 3.0, 2 / 3])
    with RunStore.open(run_dir / "store.sqlite") as store:
        results, calls = store.read_results(), store.read_calls()
    by = {(r.system, r.sample_id): r for r in results}
    turns = {key: r.success_turn for key, r in by.items()}
    assert turns == {
        ("First", "s1"): 1, ("First", "s2"): 3, ("First", "s3"): None,
        ("Single", "s1"): 1, ("Single", "s2"): None, ("Single", "s3"): None,
    }  # fmt: skip
    first_s2 = by["First", "s2"].exchanges
    assert [e.system.text for e in first_s2] == [
        "How about Metropolis (1927)?",
        "How about All Quiet on the Western Front (1930)?",
        "How about Dracula (1931)?",
    ]
    assert [e.user.text for e in first_s2] == ["Not that one, thanks."] * 2 + ["Yes, that one!"]
    assert [i.item_id for i in by["First", "s3"].final_list] == ["m005", "m006", "m007"]
    assert [i.item_id for i in by["Single", "s3"].final_list] == ["m005", "m010", "m007"]
    roles = Counter((c.model, c.role) for c in calls)
    assert roles == {("canned", "single_llm.respond"): 7, ("canned", "final_list"): 2}


def test_models_train_trains_the_package_ranker(site: Path, tmp_path: Path) -> None:
    args = ["models", "train", "reverse_popularity", "demo", "--cache-dir", "ck", "--no-progress"]
    done = cli(args, tmp_path, site)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("trained reverse_popularity on demo, leave-one-out split, in ")
    (checkpoint,) = (tmp_path / "ck").glob("reverse_popularity-*.npz")
    assert lines[1] == f"checkpoint: {(Path('ck') / checkpoint.name)}"
    split = leave_one_out(load_interactions("demo"))
    expected = np.zeros(332, dtype=np.float32)
    for seq in split.train.values():
        np.add.at(expected, np.asarray(seq), 1.0)
    with np.load(checkpoint) as saved:
        assert saved["counts"].tolist() == expected.tolist()


@pytest.mark.parametrize(
    ("old", "new", "line"),
    [
        ('kind = "first_unseen"', 'kind = "first_unseenn"', 'error: systems[0]: unknown kind '
         '"first_unseenn"; known: first_unseen, http, interecagent, itemcf, macrs, popularity, '
         "random, ranker, recmind, sasrec, single_llm, toolrec"),
        ('kind = "first_yes"', 'kind = "first_no"',
         'error: simulator: unknown kind "first_no"; known: agenda, first_yes, llm, person'),
        ('backend = "canned"', 'backend = "cannned"',
         'error: model: unknown backend "cannned"; known: canned, embedded, openai, scripted'),
    ],
    ids=["system", "simulator", "backend"],
)  # fmt: skip
def test_an_unknown_kind_names_the_package_kinds(
    site: Path, tmp_path: Path, old: str, new: str, line: str
) -> None:
    scenario = write_campaign(tmp_path)
    scenario.write_text(scenario.read_text().replace(old, new))
    done = cli(["run", str(scenario), "--output-dir", "runs", "--no-progress"], tmp_path, site)
    assert (done.returncode, done.stderr.strip(), done.stdout) == (2, line, "")
    assert not (tmp_path / "runs").exists()


def test_an_unknown_ranker_names_the_package_ranker(site: Path, tmp_path: Path) -> None:
    done = cli(["models", "train", "reverse_popularityy", "demo"], tmp_path, site)
    assert (done.returncode, done.stderr.strip()) == (
        2,
        "error: unknown model 'reverse_popularityy'; expected one of popularity, itemcf, bpr, "
        "sasrec, bert4rec, reverse_popularity",
    )


BOOKS_CSV = """book_id,title,author,subject
b1,The Left Hand of Darkness,Ursula K. Le Guin,Science Fiction
b2,A Wizard of Earthsea,Ursula K. Le Guin,Fantasy
b3,Kindred,Octavia E. Butler,Science Fiction
"""
LOANS_CSV = """reader,book_id,day
r1,b2,2024-01-05
r1,b1,2024-01-03
r1,b9,2024-01-04
r2,b3,2023-12-30
r2,b1,2024-02-01
"""


def test_data_prepare_runs_the_package_dataset(site: Path, tmp_path: Path) -> None:
    """The package's dataset kind (books, its own domain): `data prepare` reads its files,
    drops the loan of a book it lacks, and the database reads back with its domain."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "books.csv").write_text(BOOKS_CSV)
    (tmp_path / "lib" / "loans.csv").write_text(LOANS_CSV)
    done = cli(["data", "prepare", "library_loans", "lib", "--out", "lib.sqlite"], tmp_path, site)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("prepared lib: 2 users, 3 items, 4 interactions in ")
    assert lines[1:] == [
        "dropped 1 loans of books not in books.csv",
        "database: lib.sqlite",
        'use it in a scenario: [data] dataset = "lib.sqlite"',
    ]
    code = (
        "from macrs_sim.config import DataConfig\n"
        "from macrs_sim.data.dataset import open_dataset\n"
        "d = open_dataset(DataConfig(dataset='lib.sqlite'))\n"
        "print(d.domain.noun, d.sequences(), d.catalog['b3'].attribute('author'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           cwd=tmp_path, env=env, timeout=60)  # fmt: skip
    assert shown.stdout.strip() == (
        "book {'r1': ['b1', 'b2'], 'r2': ['b3', 'b1']} ('Octavia E. Butler',)"
    ), shown.stderr
    strict = cli(["data", "prepare", "library_loans", "lib", "--out", "s.sqlite", "--strict"],
                 tmp_path, site)  # fmt: skip
    assert (strict.returncode, strict.stderr.strip()) == (
        2, "error: loans.csv:4: book 'b9' is not in books.csv",
    )  # fmt: skip
    assert not (tmp_path / "s.sqlite").exists()
