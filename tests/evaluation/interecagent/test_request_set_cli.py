"""`eval interecagent requests` writes the one-turn requests once, with a named generator;
`eval interecagent one-turn --requests FILE` asks every brain exactly those (DESIGN.md §3
"A fair contest"), and its results name the file. Scripted backend, the hand-written
release of fixture_data.py; the scripted generator's words are worked out in
test_one_turn_cli.py.
"""

from __future__ import annotations

import asyncio
import csv
import functools
import hashlib
import json
from pathlib import Path

import pytest

from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.cli import main
from macrs_sim.evaluation.interecagent import run as run_module
from macrs_sim.evaluation.interecagent.request_set import read_request_set
from macrs_sim.evaluation.interecagent.requests import ROLE_PREFIX
from macrs_sim.evaluation.interecagent.run import OneTurnSettings, open_inputs, run_one_turn
from macrs_sim.evaluation.interecagent.schemas import GeneratedConversation, GeneratedMessage
from macrs_sim.evaluation.interecagent.scripted import (
    one_turn_scripted_rules,
    retrieval_conversation,
)
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedChatCompletionClient, ScriptedRequest
from tests.evaluation.interecagent.fixture_data import write_database
from tests.evaluation.interecagent.test_one_turn_cli import SCENARIO

INSTRUCTION = "Please give me 2 recommendations based on the chat history."
USER_1 = [
    "I liked that movie (1986).",
    "Nice. What are you in the mood for now?",
    "Something Action from the 1990s. " + INSTRUCTION,
]


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    # The scripted plans never use the text model: leave it unloaded (~20 s).
    fast = functools.partial(run_module.run_one_turn, use_text_model=False)
    monkeypatch.setattr(run_module, "run_one_turn", fast)
    (tmp_path / "s.toml").write_text(SCENARIO, encoding="utf-8")
    return write_database(tmp_path)


def _requests(db: Path, out: Path, *args: str) -> int:
    return main(["eval", "interecagent", "requests", str(db), "--task", "retrieval", "--n", "3",
                 "--k", "2", "--generator-model", "scripted", "--out", str(out), "--no-progress",
                 *args])  # fmt: skip


def _one_turn(tmp: Path, db: Path, *args: str) -> int:
    return main(["eval", "interecagent", "one-turn", str(db), "--baselines", "popularity",
                 "--out", str(tmp / "out"), "--cache-dir", str(tmp / "models"), "--no-progress",
                 "--scenario", str(tmp / "s.toml"), "--llm-rows", "none", *args])  # fmt: skip


def test_requests_are_written_once_with_their_generator(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "retrieval.jsonl"
    assert _requests(db, path) == 0
    out = capsys.readouterr().out.splitlines()
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    assert out[0] == ("ml-tiny: 3 of 3 retrieval requests, seed 0, k 2, written by scripted"
                      " (test double) (--generator-model scripted)")  # fmt: skip
    # One generation call a case, nothing else: no brain is asked.
    assert out[1].startswith("model calls: 3 (interecagent.one_turn_retrieval 3), ")
    assert out[2] == f"wrote {path} (sha256 {sha256})"
    inputs = open_inputs(str(db))
    read = read_request_set(path, inputs.dataset.catalog, inputs.identity)
    h = read.header
    assert (h.generator, h.generator_model, h.dataset, h.dataset_fingerprint) == (
        "scripted (test double)", {"backend": "scripted", "latency_s": 0.0, "seed": 0,
                                   "max_retries": 3}, "ml-tiny", inputs.data.fingerprint,
    )  # fmt: skip
    assert (h.task, h.n, h.k, h.seed, h.history_len, h.failed) == ("retrieval", 3, 2, 0, 20, 0)
    assert [c.user_id for c in read.cases] == ["2", "3", "1"]  # as seed 0 draws them
    assert [u.text for u in read.requests[2].utterances] == USER_1


def test_one_turn_answers_the_files_requests_and_names_the_file(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "retrieval.jsonl"
    assert _requests(db, path) == 0
    capsys.readouterr()
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    assert _one_turn(tmp_path, db, "--requests", str(path)) == 0
    lines = capsys.readouterr().out.splitlines()
    # The numbers of test_retrieval_recall_by_hand: the same requests, the same answers.
    assert lines[0] == ("ml-tiny: one-turn retrieval, 3 of 3 generated requests, seed 0"
                        " (model: scenario one_turn, system 'IRA')")  # fmt: skip
    assert lines[2].split() == ["InteRecAgent", "3", "0", "0.667", "1.667", "3.000"]
    assert lines[4] == f"requests: {path} (sha256 {sha256}), written by scripted (test double)"
    # No generation: InteRecAgent's planner, reply and critic once a case.
    assert lines[5].startswith("model calls: 9 (interecagent.planner 3, interecagent.reply 3,"
                               " interecagent.critic 3), ")  # fmt: skip
    record = json.loads((tmp_path / "out" / "results.json").read_text("utf-8"))
    assert record["request_set"] == {"path": str(path), "sha256": sha256,
                                     "generator": "scripted (test double)"}  # fmt: skip
    user1 = next(c for c in record["cases"] if c["user_id"] == "1")
    assert [u["text"] for u in user1["utterances"]] == USER_1
    with (tmp_path / "out" / "results.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert {(r["requests"], r["requests_sha256"]) for r in rows} == {(str(path), sha256)}


def test_without_a_file_the_output_says_the_brain_wrote_its_requests(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _one_turn(tmp_path, db, "--task", "retrieval", "--n", "3", "--k", "2") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[4] == (
        "requests: written by the model under test (scenario one_turn, system 'IRA'), not a"
        " shared request set: brains evaluated this way answer different questions (write one"
        " with `macrs-sim eval interecagent requests`, give it as --requests)"
    )
    record = json.loads((tmp_path / "out" / "results.json").read_text("utf-8"))
    assert record["request_set"] == {"path": None, "sha256": None,
                                     "generator": "the model under test"}  # fmt: skip
    with (tmp_path / "out" / "results.csv").open(encoding="utf-8") as f:
        row = next(csv.DictReader(f))
    assert (row["requests"], row["requests_sha256"]) == ("", "")
    assert row["requests_generator"] == "the model under test"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--k", "3"], "error: --k 3: the request set FILE was made with --k 2; leave --k out"
                       " (the request set fixes it)\n"),
        (["--task", "ranking"], "error: --task ranking: the request set FILE was made with"
                                " --task retrieval; leave --task out (the request set fixes it)\n"),
    ],
)  # fmt: skip
def test_a_flag_against_the_file_is_refused(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    path = tmp_path / "retrieval.jsonl"
    assert _requests(db, path) == 0
    capsys.readouterr()
    assert _one_turn(tmp_path, db, "--requests", str(path), *args) == 2
    assert capsys.readouterr().err == message.replace("FILE", str(path))
    assert not (tmp_path / "out").exists()


def test_a_damaged_file_is_one_line_and_nothing_is_written(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "retrieval.jsonl"
    assert _requests(db, path) == 0
    capsys.readouterr()
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:-1]) + lines[-1][:25], encoding="utf-8")  # cut mid-line
    assert _one_turn(tmp_path, db, "--requests", str(path)) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}:4: bad request (Invalid JSON: EOF while parsing")
    assert "; expected one request a line" in err and err.count("\n") == 1
    assert not (tmp_path / "out").exists()


def test_the_requests_command_refuses_bad_input_in_one_line(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _requests(db, tmp_path) == 2  # a folder
    assert capsys.readouterr().err == (
        f"error: --out {tmp_path}: a folder; expected the request set's file name\n"
    )
    assert _requests(db, tmp_path / "r.jsonl", "--generator-model", "gpt") == 2
    assert capsys.readouterr().err == (
        "error: --generator-model 'gpt': expected scripted, embedded or a scenario file (.toml)\n"
    )
    argv = ["eval", "interecagent", "requests", str(db), "--out", str(tmp_path / "r.jsonl")]
    assert main(argv) == 2
    assert capsys.readouterr().err == "error: --task: expected retrieval or ranking\n"
    one_turn = ["eval", "interecagent", "one-turn", str(db), "--out", str(tmp_path / "out")]
    assert main(one_turn) == 2
    assert capsys.readouterr().err == (
        "error: --task: expected retrieval or ranking (or --requests FILE: its request set"
        " names it)\n"
    )
    assert not (tmp_path / "r.jsonl").exists() and not (tmp_path / "out").exists()


def _brain(generator_words: str) -> ScriptedChatCompletionClient:
    """A scripted brain: the shared planner, and its own way of writing requests."""
    rules = one_turn_scripted_rules(2, INSTRUCTION)

    def generate(req: ScriptedRequest) -> GeneratedConversation:
        conv = retrieval_conversation(req)
        assert isinstance(conv, GeneratedConversation)
        first = GeneratedMessage(role="User", text=generator_words)
        return GeneratedConversation(messages=[first, *conv.messages[1:]])

    rules[ROLE_PREFIX + "retrieval"] = generate
    return ScriptedChatCompletionClient(rules, record_calls=True)


def _seen(client: ScriptedChatCompletionClient) -> dict[str, list[str]]:
    """What reached each brain's planner, per case: its messages, as sent."""
    return {
        str(req.context.dialogue_id): [f"{type(m).__name__}: {message_text(m)}"
                                       for m in req.messages]
        for req in client.calls if req.context.role == "interecagent.planner"
    }  # fmt: skip


def _ask(client: ScriptedChatCompletionClient, db: Path, tmp: Path, path: Path | None) -> None:
    inputs = open_inputs(str(db))
    request_set = None
    if path is not None:
        request_set = read_request_set(path, inputs.dataset.catalog, inputs.identity)
    settings = OneTurnSettings(str(db), "retrieval", n=3, k=2, baselines=())
    asyncio.run(run_one_turn(settings, client, InteRecAgentOptions(ranker="popularity"),
                             cache_dir=tmp / "models", use_text_model=False, inputs=inputs,
                             request_set=request_set))  # fmt: skip


def test_two_brains_given_one_file_see_byte_identical_requests(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "retrieval.jsonl"
    assert _requests(db, path) == 0
    # Left to write their own requests, the two brains are asked different questions.
    a, b = _brain("I liked a few films."), _brain("Hello there, I need a film.")
    _ask(a, db, tmp_path, None)
    _ask(b, db, tmp_path, None)
    assert _seen(a)["c-1"] != _seen(b)["c-1"]
    # Given the file, both answer exactly its requests, and neither writes any.
    a, b = _brain("I liked a few films."), _brain("Hello there, I need a film.")
    _ask(a, db, tmp_path, path)
    _ask(b, db, tmp_path, path)
    seen_a, seen_b = _seen(a), _seen(b)
    assert sorted(seen_a) == ["c-1", "c-2", "c-3"] and seen_a == seen_b
    assert all(not str(r.context.role).startswith(ROLE_PREFIX) for r in (*a.calls, *b.calls))
    # The file's words, not the brain's: user 1's request as test_one_turn_cli works it out.
    assert "User: I liked that movie (1986)." in seen_a["c-1"][-1]
    assert "Something Action from the 1990s. " + INSTRUCTION in seen_a["c-1"][-1]
