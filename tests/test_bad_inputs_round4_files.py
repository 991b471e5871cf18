"""Issue 40 §4-§5: files too deep, too big or never ending, and values that mean something
else. Each bad input is one `error:` line, exit code 2, no traceback, and no file left
behind (the scratch folder's file list is the same after the command)."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import macrs_sim.textfile
from macrs_sim.cli import main
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import Dataset, open_dataset
from macrs_sim.data.sample_set import SampleSetHeader
from macrs_sim.protocol import Sample
from tests.test_bad_inputs import GOOD, RUN  # the round-three table's scenario and command

DEEP = "[" * 100_000 + "]" * 100_000
# popularity: no model to train before the options are read
INTERECAGENT = GOOD.replace(
    'name = "MACRS"\nkind = "macrs"', 'name = "I"\nkind = "interecagent"\nranker = "popularity"'
)


def edit(old: str, new: str, base: str = GOOD) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


@functools.cache
def _dataset() -> Dataset:
    return open_dataset(DataConfig())


def header(n: int) -> str:
    dataset = _dataset()
    return SampleSetHeader(
        dataset=dataset.name, dataset_fingerprint=dataset.fingerprint, data={}, simulator={},
        n_samples=n, created_at="2026-01-01T00:00:00Z",
    ).model_dump_json()  # fmt: skip


@functools.cache
def _sample() -> str:
    ids = [item.item_id for item in _dataset().catalog][:6]
    one = Sample(sample_id="s-ID", user_id="u-ID", history=tuple(ids[:5]), target_id=ids[5],
                 opening="Something funny, please.")  # fmt: skip
    return one.model_dump_json()


def sample(i: int) -> str:
    return _sample().replace("-ID", str(i))


SET_TOML = edit("n_samples = 2", 'sample_set = "set.jsonl"')
CATALOG_TOML = edit("n_samples = 2", 'catalog = "c.jsonl"')


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]
    expected: str  # a piece of the error line
    files: dict[str, str | bytes] = field(default_factory=dict)


def run_case(id: str, toml: str, expected: str, **files: str | bytes) -> Case:
    return Case(
        id, RUN, expected, {"s.toml": toml, **{k.replace("_", "."): v for k, v in files.items()}}
    )


CASES = [
    # §4: nesting a parser cannot take (RecursionError before)
    run_case(
        "sample-set-header-deep", SET_TOML, "set.jsonl:1: not a sample-set file", set_jsonl=DEEP
    ),
    run_case("catalog-line-deep", CATALOG_TOML, "c.jsonl:1: not a valid item record", c_jsonl=DEEP),
    run_case(
        "scenario-toml-deep", GOOD + "x = " + DEEP + "\n", "not valid TOML: nested too deeply"
    ),
    run_case(
        "demonstrations-deep",
        INTERECAGENT + 'demonstrations_file = "d.json"\n',
        "demonstrations_file d.json: not JSON (nested too deeply",
        d_json=DEEP,
    ),
    # a sibling: a number longer than int() takes (ValueError before)
    run_case(
        "catalog-line-huge-number",
        CATALOG_TOML,
        "c.jsonl:1: not a valid item record",
        c_jsonl='{"item_id": ' + "1" * 5000 + "}\n",
    ),  # fmt: skip
    # a sibling: a demonstration file that is not UTF-8 (UnicodeDecodeError before)
    run_case(
        "demonstrations-not-utf8",
        INTERECAGENT + 'demonstrations_file = "d.json"\n',
        "d.json:1: the demonstrations_file is not valid UTF-8 text",
        d_json=b'[{"intent": "caf\xe9"}]',
    ),
    # §4: the header's count checked as the lines stream
    run_case(
        "sample-set-more-than-header",
        SET_TOML,
        "set.jsonl:4: sample 3, but the header says 2 samples",
        set_jsonl="\n".join([header(2)] + [sample(i) for i in range(50_000)]) + "\n",
    ),  # fmt: skip
    # §5: booleans are not numbers, nan is not a finite number
    run_case(
        "reflection-limit-true",
        INTERECAGENT + "reflection_limit = true\n",
        'systems[0] (kind "interecagent"): reflection_limit: expected a number, found true',
    ),
    run_case(
        "dialogue-window-true",
        INTERECAGENT + "dialogue_window = true\n",
        'systems[0] (kind "interecagent"): dialogue_window: expected a number, found true',
    ),
    run_case(
        "protocol-max-turns-true",
        GOOD.replace("max_turns = 2", "max_turns = true"),
        "protocol.max_turns: expected a number, found true",
    ),  # fmt: skip
    run_case(
        "temperature-nan",
        edit("[protocol]\n", "[protocol]\ntemperature = nan\n"),
        "protocol.temperature: must be a finite number, found nan",
    ),  # fmt: skip
    run_case(
        "person-in-run",
        GOOD + '[simulator]\nkind = "person"\n',
        'simulator: kind "person" is a person typing at a terminal: it runs only in'
        " `macrs-sim chat SCENARIO`",
    ),
    Case(
        "recmind-vote-temperature-nan",
        (
            "eval",
            "recmind",
            "direct",
            "demo",
            "--model",
            "scripted",
            "--set",
            "vote_temperature=nan",
        ),
        "--set: vote_temperature: Input should be a finite number",
    ),  # fmt: skip
]


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_one_line(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for rel, content in case.files.items():
        if isinstance(content, bytes):
            (tmp_path / rel).write_bytes(content)
        else:
            (tmp_path / rel).write_text(content, encoding="utf-8")
    before = _files(tmp_path)
    monkeypatch.chdir(tmp_path)
    rc = main(list(case.argv))
    out, err = capsys.readouterr()
    assert rc == 2, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert case.expected in lines[0], lines[0]
    assert "Traceback" not in out + err
    assert _files(tmp_path) == before


def test_a_line_past_the_cap_is_refused_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cap is 16 MiB; here 4 KiB, so a line of 40 KiB stands in for the 2 GB one."""
    monkeypatch.setattr(macrs_sim.textfile, "MAX_LINE_BYTES", 4096, raising=False)
    (tmp_path / "s.toml").write_text(SET_TOML)
    (tmp_path / "set.jsonl").write_text(header(2) + "\n" + sample(0) + "\n" + "x" * 40_960 + "\n")
    monkeypatch.chdir(tmp_path)
    assert main(list(RUN)) == 2
    err = capsys.readouterr().err
    assert err == "error: set.jsonl:3: line longer than 4,096 bytes; expected one record a line\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("where", ["demonstrations", "sample_set", "catalog", "scenario"])
def test_a_fifo_is_refused_without_blocking(tmp_path: Path, where: str) -> None:
    """Nobody writes to the FIFO: reading it would block forever (before: `run` hung)."""
    os.mkfifo(tmp_path / "f")
    toml = {
        "demonstrations": INTERECAGENT + 'demonstrations_file = "f"\n',
        "sample_set": edit("n_samples = 2", 'sample_set = "f"'),
        "catalog": edit("n_samples = 2", 'catalog = "f"'),
        "scenario": None,
    }[where]
    if toml is not None:
        (tmp_path / "s.toml").write_text(toml)
    argv = list(RUN) if toml is not None else ["run", "f", "--no-progress"]
    done = subprocess.run(
        [sys.executable, "-m", "macrs_sim.cli", *argv],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    assert "is a FIFO; expected a regular file" in done.stderr
    assert not (tmp_path / "runs").exists()


def test_bool_for_number_finds_the_path() -> None:
    from pydantic import BaseModel

    from macrs_sim.config.numbers import bool_for_number

    class Inner(BaseModel):
        n: int = 0
        on: bool = False

    class Outer(BaseModel):
        inner: Inner
        ks: list[int]

    typed = Outer.model_validate({"inner": {"n": True, "on": True}, "ks": [1, False]})
    assert bool_for_number({"inner": {"n": True, "on": True}, "ks": [1, 2]}, typed) == (
        "inner",
        "n",
    )
    assert bool_for_number({"inner": {"on": True}, "ks": [1, False]}, typed) == ("ks", 1)
    assert bool_for_number({"inner": {"on": True}, "ks": [1]}, typed) is None
    assert json.loads("1") == 1  # the module's parser is untouched
