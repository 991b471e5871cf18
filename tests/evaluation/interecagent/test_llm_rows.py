"""Table 5's LLM rows: parsing and grounding hostile replies, their scores by hand, and the
rows end to end on the scripted backend (fixture_data.py's seven films, two named "Heat")."""

from __future__ import annotations

import csv
import functools
import json
import math
from pathlib import Path

import pytest
from autogen_core.models import UserMessage

from macrs_sim.cli import main
from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.grounding import Grounder
from macrs_sim.evaluation.interecagent import run as run_module
from macrs_sim.evaluation.interecagent.llm_rows import (
    LLM_ONLY,
    GroundedList,
    LLMRow,
    ground_list,
    listed_titles,
)
from macrs_sim.evaluation.interecagent.metrics import case_score
from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, OneTurnRequest
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Utterance
from tests.evaluation.interecagent.fixture_data import write_database

HOSTILE = """Sure! Here are my picks:
1. **Heat (1986)** - Michael Mann's first take
2) "heat (1995)"
- Not A Film (2001)
3. HEAT (1986)
4. Not a film (2001)
5: Se7en
Enjoy!"""


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    db = write_database(tmp_path_factory.mktemp("db"))
    return open_dataset(DataConfig(dataset=str(db))).catalog


@pytest.fixture(scope="module")
def grounder(catalog: Catalog) -> Grounder:
    return Grounder(catalog)


def test_listed_titles_strip_emphasis_quotes_and_explanations() -> None:
    assert listed_titles(HOSTILE) == [
        "Heat (1986)", "heat (1995)", "Not A Film (2001)", "HEAT (1986)", "Not a film (2001)",
        "Se7en",
    ]  # fmt: skip
    assert listed_titles("Heat (1986); Alien\nCasino") == ["Heat (1986)", "Alien", "Casino"]
    assert listed_titles("") == []


def test_years_tell_remakes_apart_repeats_and_unknowns_keep_their_place(
    grounder: Grounder,
) -> None:
    found = ground_list(listed_titles(HOSTILE), grounder)
    # Heat (1986) is item 2, Heat (1995) item 1; the repeats (HEAT (1986), the unknown film in
    # another case) are dropped; the unknown keeps position 3.
    assert found == GroundedList(
        items=("2", "1", "unknown:not a film (2001)", "4"), unknown=1, duplicates=2
    )
    # Retrieval k = 3: Se7en (4) at rank 4 misses; Heat 1995 at rank 2 hits.
    assert case_score("retrieval", found.items, "4", 3) == (4, 0.0)
    assert case_score("retrieval", found.items, "1", 3) == (2, 1.0)
    # Ranking: the unknown title counts as a wrong item at its place: Se7en's NDCG@4 = 1/log2 5.
    rank, ndcg = case_score("ranking", found.items, "4", 4)
    assert rank == 4 and ndcg == pytest.approx(1 / math.log2(5))
    assert case_score("ranking", found.items, "5", 4) == (None, 0.0)


async def test_llm_only_answers_from_the_request_alone(
    catalog: Catalog, grounder: Grounder
) -> None:
    client = ScriptedChatCompletionClient({"interecagent.one_turn_llm_only": lambda r: HOSTILE})
    row = LLMRow(LLM_ONLY, client, PromptLibrary(), catalog, grounder)
    case = OneTurnCase(case_id="c", user_id="1", history=("2",), target_id="1")
    request = OneTurnRequest(case_id="c", utterances=(Utterance(speaker="user", text="Heist?"),))
    answer = await row.answer(case, request, "retrieval", 5)
    assert answer.items == ("2", "1", "unknown:not a film (2001)", "4") and answer.llm_calls == 1
    sent = client.calls[0].messages
    assert isinstance(sent[1], UserMessage) and sent[1].content == (
        "Here is the conversation:\nUser: Heist?\n\nAnswer the user's last message. Reply with"
        " only a numbered list of 5 movie titles, each with its release year, best first."
    )
    assert client.calls[0].context.system == "LLM only"


def _cli(
    capsys: pytest.CaptureFixture[str], tmp: Path, *args: str
) -> tuple[str, dict[tuple[str, str], dict[str, str]]]:
    db = write_database(tmp)
    argv = ["eval", "interecagent", "one-turn", str(db), "--n", "3", "--baselines", "popularity",
            "--backend", "scripted", "--out", str(tmp / "out"), "--cache-dir", str(tmp / "m"),
            "--no-progress", "--chatrec-ranker", "popularity", *args]  # fmt: skip
    assert main(argv) == 0
    with (tmp / "out" / "cases.csv").open(encoding="utf-8") as f:
        cases = {(r["user_id"], r["system"]): r for r in csv.DictReader(f)}
    return capsys.readouterr().out, cases


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = functools.partial(run_module.run_one_turn, use_text_model=False)
    monkeypatch.setattr(run_module, "run_one_turn", fast)


@pytest.mark.usefixtures("fast")
def test_retrieval_rows_by_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, cases = _cli(capsys, tmp_path, "--task", "retrieval", "--k", "2")
    # LLM only (scripted): the title the user said they liked, then a film the catalog lacks.
    # User 1's "Heat (1986)" was redacted ("that movie (1986)"): two unknown titles.
    llm = [cases[u, "LLM only"]["items"] for u in "123"]
    assert llm == ["unknown:that movie (1986) unknown:not a film (2001)",
                   "2 unknown:not a film (2001)", "1 unknown:not a film (2001)"]  # fmt: skip
    # Chat-Rec over the user's history (--chatrec-ranker popularity: a different setting,
    # named apart): popularity's unseen films (Goodfellas 4, then Se7en / Heat 1986 by
    # catalog order, Heat 1995, Casino) are the candidates; the scripted model keeps two.
    name = "Chat-Rec (history)"
    chat = [(cases[u, name]["items"], cases[u, name]["rank"]) for u in "123"]
    assert chat == [("7 4", ""), ("7 4", "2"), ("7 2", "")]
    rows = {line.split()[0]: line.split() for line in out.splitlines()[2:7]}
    assert rows["LLM"] == ["LLM", "only", "3", "0", "0.000", "2.000", "1.000"]
    assert rows["Chat-Rec"] == ["Chat-Rec", "(history)", "3", "0", "0.333", "2.000", "1.000"]


@pytest.mark.usefixtures("fast")
def test_ranking_has_llm_only_not_chat_rec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, cases = _cli(capsys, tmp_path, "--task", "ranking", "--k", "4")
    record = json.loads((tmp_path / "out" / "results.json").read_text("utf-8"))
    # The scripted LLM lists the 4 candidates in reverse: the target's rank is 5 - its place.
    for c in record["cases"]:
        place = c["candidates"].index(c["target_id"]) + 1
        answer = cases[c["user_id"], "LLM only"]
        assert answer["items"].split() == c["candidates"][::-1]
        assert int(answer["rank"]) == 5 - place
        assert float(answer["score"]) == pytest.approx(1 / math.log2(1 + 5 - place))
    assert not any(system.startswith("Chat-Rec") for _, system in cases)  # the paper omits it
    assert [line.split()[0] for line in out.splitlines()[2:5]] == [
        "InteRecAgent",
        "LLM",
        "popularity",
    ]
