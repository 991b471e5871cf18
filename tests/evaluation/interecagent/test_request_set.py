"""Request-set files (the one-turn requests written once by a named model): the exact format,
a round trip, an atomic write, and one line naming file, line and what was expected for
every kind of damage. Cases over the hand-written release of fixture_data.py."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from macrs_sim.errors import DataError
from macrs_sim.evaluation.interecagent.request_set import (
    RequestSetHeader,
    read_request_set,
    write_request_set,
)
from macrs_sim.evaluation.interecagent.run import OneTurnInputs, open_inputs
from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, OneTurnRequest
from macrs_sim.protocol import Utterance
from tests.evaluation.interecagent.fixture_data import write_database

# Users 1 and 2 of fixture_data.py: histories Heat (1986), Alien, Toy Story; targets Heat
# (1995) and Se7en. User 2's generation failed: kept with its error, asked of no system.
CASES = [
    OneTurnCase(case_id="c-1", user_id="1", history=("2", "6", "3"), target_id="1"),
    OneTurnCase(case_id="c-2", user_id="2", history=("2", "6", "3"), target_id="4"),
]
REQUESTS = [
    OneTurnRequest(case_id="c-1", redacted=True, utterances=(
        Utterance(speaker="user", text="I liked that movie (1986)."),
        Utterance(speaker="system", text="Nice. What are you in the mood for now?"),
        Utterance(speaker="user", text="Something Action from the 1990s. Please give me 2"
                                       " recommendations based on the chat history."),
    )),
    OneTurnRequest(case_id="c-2", error="the generated dialogue has no user message"),
]  # fmt: skip


@pytest.fixture
def inputs(tmp_path: Path) -> OneTurnInputs:
    return open_inputs(str(write_database(tmp_path)))


def _header(inputs: OneTurnInputs, **changes: object) -> RequestSetHeader:
    name, fingerprint = inputs.identity
    fields: dict[str, object] = {
        "generator": "scripted (test double)", "generator_model": {"backend": "scripted"},
        "temperature": 0.0, "dataset": name, "dataset_fingerprint": fingerprint,
        "task": "retrieval", "n": 2, "k": 2, "seed": 0, "history_len": 20, "failed": 1,
        "created_at": "2026-01-02T03:04:05Z",
    }  # fmt: skip
    return RequestSetHeader.model_validate(fields | changes)


def test_the_file_is_a_header_then_one_case_and_request_a_line(
    inputs: OneTurnInputs, tmp_path: Path
) -> None:
    path = tmp_path / "sets" / "requests.jsonl"  # its folder is made
    sha256 = write_request_set(path, _header(inputs), CASES, REQUESTS)
    data = path.read_bytes()
    assert sha256 == hashlib.sha256(data).hexdigest()
    header, first, second = (json.loads(line) for line in data.decode().splitlines())
    assert header == {
        "format": "macrs-sim/interecagent-requests", "version": 1,
        "generator": "scripted (test double)", "generator_model": {"backend": "scripted"},
        "temperature": 0.0, "dataset": "ml-tiny", "dataset_fingerprint": inputs.data.fingerprint,
        "task": "retrieval", "n": 2, "k": 2, "seed": 0, "history_len": 20, "failed": 1,
        "created_at": "2026-01-02T03:04:05Z",
    }  # fmt: skip
    assert first["case_id"] == "c-1" and first["target_id"] == "1" and first["redacted"]
    assert [u["speaker"] for u in first["utterances"]] == ["user", "system", "user"]
    assert second == {"case_id": "c-2", "user_id": "2", "history": ["2", "6", "3"],
                      "target_id": "4", "candidates": [], "utterances": [], "redacted": False,
                      "error": "the generated dialogue has no user message"}  # fmt: skip
    assert [p.name for p in path.parent.iterdir()] == ["requests.jsonl"]  # no temporary left


def test_round_trip(inputs: OneTurnInputs, tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_text("an older file", encoding="utf-8")  # replaced whole
    sha256 = write_request_set(path, _header(inputs, created_at=""), CASES, REQUESTS)
    read = read_request_set(path, inputs.dataset.catalog, inputs.identity)
    assert (read.cases, read.requests, read.sha256, read.path) == (CASES, REQUESTS, sha256, path)
    assert read.header.created_at.endswith("Z")  # stamped when written
    assert read.header == _header(inputs, created_at=read.header.created_at)


def _damaged(inputs: OneTurnInputs, path: Path, damage: str) -> None:
    write_request_set(path, _header(inputs), CASES, REQUESTS)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    header = json.loads(lines[0])
    if damage == "not json":
        lines[0] = "id,request\n"
    elif damage == "version":
        lines[0] = json.dumps(header | {"version": 2}) + "\n"
    elif damage == "header field":
        lines[0] = json.dumps({k: v for k, v in header.items() if k != "seed"}) + "\n"
    elif damage == "fingerprint":
        lines[0] = json.dumps(header | {"dataset_fingerprint": "ml-tiny|other"}) + "\n"
    elif damage == "cut mid-line":
        lines[2] = lines[2][:40]
    elif damage == "cut at a line":
        lines = lines[:2]
    elif damage == "extra line":
        lines.append(lines[2])
    elif damage == "unknown item":
        lines[1] = lines[1].replace('"target_id":"1"', '"target_id":"99"')
    elif damage == "twice":
        lines[2] = lines[1]
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        ("not json", ':1: not a request-set header; expected a JSON object with "format":'
                     ' "macrs-sim/interecagent-requests" (make one with `macrs-sim eval'
                     " interecagent requests`)"),
        ("version", ":1: request-set version 2; expected 1 (make one with"),
        ("header field", ":1: bad request-set header (seed: Field required); expected the header"),
        ("fingerprint", ":1: written for dataset 'ml-tiny' (ml-tiny|other); expected the dataset"
                        " evaluated, 'ml-tiny' (FP)"),
        ("cut mid-line", ":3: bad request (Invalid JSON: EOF while parsing an object at line 1"
                         " column 40); expected one request a line"),
        ("cut at a line", ":3: the file ends after 1 requests; expected 2, as its header says"
                          " (truncated?)"),
        ("extra line", ":4: request 3 of 3; expected 2, as its header says (edited?)"),
        ("unknown item", ":2: item '99' is not in the dataset's catalog; expected its item ids"),
        ("twice", ":3: case 'c-1' again; expected each case once"),
    ],
)  # fmt: skip
def test_a_damaged_file_is_one_line(
    inputs: OneTurnInputs, tmp_path: Path, damage: str, message: str
) -> None:
    path = tmp_path / "requests.jsonl"
    _damaged(inputs, path, damage)
    with pytest.raises(DataError) as err:
        read_request_set(path, inputs.dataset.catalog, inputs.identity)
    text = str(err.value)
    assert text.startswith(str(path) + message.replace("FP", inputs.data.fingerprint)), text
    assert "\n" not in text


def test_a_missing_or_empty_file(inputs: OneTurnInputs, tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    with pytest.raises(DataError, match=r"requests.jsonl: no such file; expected a request set"):
        read_request_set(path, inputs.dataset.catalog, inputs.identity)
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"requests.jsonl:1: empty file; expected a request-set"):
        read_request_set(path, inputs.dataset.catalog, inputs.identity)
