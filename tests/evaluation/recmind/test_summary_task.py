"""RecMind's review summarisation (App. B.1) on a hand-written Amazon 2018 download kept
with --keep-text, end to end on the scripted backend, and its one-line refusals.

A1 reviews P1, P2 ("Four Stars": automatic, never an example), then P3, held out:
"Great smell. Soft skin too." summarised "Great smell and soft skin". A2 reviews P4, P1,
then P2, held out: "it works well well. Really." summarised "works well". A3's held-out
review is titled "Five Stars" (left out); A4 has two reviews (no test case). The scripted
solver answers a review's first sentence: "Great smell" and "it works well well".
"""

from __future__ import annotations

import json
import math
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from macrs_sim.cli import main
from macrs_sim.data.registry import dataset_spec
from macrs_sim.evaluation.recmind.answers import parse_summary
from macrs_sim.evaluation.recmind.reviews import Review

META = [("P1", "Lumera Soft Gel"), ("P2", "Lumera Night Cream"), ("P3", "Oriel Hair Oil"),
        ("P4", "Oriel Sea Spray")]  # fmt: skip
REVIEWS = [
    ("A1", "P1", 100, "Soft and light on skin.", "Soft and light"),
    ("A1", "P2", 200, "Smells nice.", "Four Stars"),
    ("A1", "P3", 300, "Great smell. Soft skin too.", "Great smell and soft skin"),
    ("A2", "P4", 100, "Salty but fine.", "Fine spray"),
    ("A2", "P1", 200, "Too light for me.", "Too light"),
    ("A2", "P2", 300, "it works well well. Really.", "works well"),
    ("A3", "P1", 100, "Nice.", "Nice one"),
    ("A3", "P2", 200, "Okay.", "Okay cream"),
    ("A3", "P4", 300, "Great.", "Five Stars"),
    ("A4", "P3", 100, "Good oil.", "Good oil"),
    ("A4", "P4", 200, "Good spray.", "Good spray"),
]


def write_download(folder: Path, *, summaries: bool = True) -> Path:
    folder.mkdir(parents=True)
    meta = [{"asin": a, "title": t, "category": ["All Beauty", "Skin Care"]} for a, t in META]
    lines = []
    for user, asin, time, text, summary in REVIEWS:
        row = {"overall": 4.0, "reviewerID": user, "asin": asin, "unixReviewTime": time,
               "reviewText": text} | ({"summary": summary} if summaries else {})  # fmt: skip
        lines.append(json.dumps(row))
    (folder / "meta_Tiny.json").write_text("".join(json.dumps(m) + "\n" for m in meta))
    (folder / "Tiny_5.json").write_text("".join(line + "\n" for line in lines))
    return folder / "Tiny_5.json"


def prepare(tmp_path: Path, name: str, **options: object) -> Path:
    spec = dataset_spec("amazon")
    out = tmp_path / f"{name}.sqlite"
    source = write_download(tmp_path / name, summaries=bool(options.pop("summaries", True)))
    spec.loader()(source, out, spec.options(**options), overwrite=False)
    return out


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", "recmind", "summary", *argv, "--model", "scripted", "--no-progress"])
    out, err = capsys.readouterr()
    return code, out, err


def test_summary_scores_bleu_and_rouge_by_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = prepare(tmp_path, "tiny", keep_text=True)
    out = tmp_path / "out"
    code, text, _ = run(capsys, str(db), "--out", str(out))
    assert code == 0, text
    assert "RecMind task summary, 2 users, seed 0" in text
    rows = json.loads((out / "results.json").read_text())["results"]
    assert [r["prompting"] for r in rows] == ["zero-shot", "few-shot"]
    for row in rows:  # the same answers both ways: the rule reads the asked review only
        assert row["BLEU-2"] == pytest.approx(100 * math.sqrt(4 / 6 * 2 / 4) * math.exp(-1 / 6))
        assert row["ROUGE-1"] == pytest.approx(100 * (2 * 0.4 / 1.4 + 0.8) / 2)
        assert row["ROUGE-2"] == pytest.approx(45.0)
        assert row["ROUGE-L"] == pytest.approx(100 * (7.25 * 0.4 / 6.65 + 0.625 / 1.125) / 2)
        assert row["errors"] == 0 and row["unparsable"] == 0 and row["judge_calls"] == 0
    answers = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    first = answers[0]
    assert (first["user_id"], first["summary"], first["reference"]) == (
        "A1", "Great smell", "Great smell and soft skin"
    )  # fmt: skip
    assert first["question"] == (
        "Write a short sentence to summarize the following product review from user A1:\n"
        "Great smell. Soft skin too.\n\nAnswer with the summary only."
    )
    few = next(a for a in answers if a["prompting"] == "few-shot" and a["user_id"] == "A1")
    assert "Review: Soft and light on skin.\nSummary: Soft and light\n\nWrite" in few["question"]
    assert "Four Stars" not in few["question"] and "Smells nice" not in few["question"]


@pytest.mark.parametrize(
    ("database", "message"),
    [
        ("demo", "review summarisation needs review text; dataset 'demo' has none (use a "
                 "database made by `macrs-sim data prepare amazon ... --keep-text`)"),
        ("plain", "keeps none (it was prepared without --keep-text: use a database made by"),
        ("headless", "needs each review's summary; the reviews in "),
    ],
)  # fmt: skip
def test_data_without_review_text_or_summaries_is_one_line(
    database: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if database == "plain":
        database = str(prepare(tmp_path, "plain"))
    elif database == "headless":
        database = str(prepare(tmp_path, "headless", keep_text=True, summaries=False))
    code, out, err = run(capsys, database, "--out", str(tmp_path / "o"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err, err
    assert not (tmp_path / "o").exists()


def test_no_usable_held_out_review_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = prepare(tmp_path, "tiny", keep_text=True)
    with closing(sqlite3.connect(db)) as conn:  # every headline Amazon's own
        conn.execute("UPDATE reviews SET summary = 'Five Stars'")
        conn.commit()
    code, _, err = run(capsys, str(db), "--out", str(tmp_path / "o"))
    assert code == 2
    assert err == (
        "error: amazon-2018:Tiny: no user has a last review with a summary of its own (not an "
        "automatic one such as 'Five Stars') and 3 or more interactions\n"
    )


@pytest.mark.parametrize(
    ("summary", "usable"),
    [("Five Stars", False), ("five stars.", False), ("One Star", False), ("", False),
     (None, False), ("Five stars for the scent", True), ("Lovely", True)],
)  # fmt: skip
def test_automatic_headlines_are_not_summaries(summary: str | None, usable: bool) -> None:
    assert Review("Some text.", summary).usable is usable
    assert Review("  ", "Lovely").usable is False


@pytest.mark.parametrize(
    ("answer", "summary"),
    [("Great smell", "Great smell"), ("Summary: \"Great smell\"\nBecause...", "Great smell"),
     ("\n  title - Soft skin  \n", "Soft skin"), ("", None), ("  \n\"\"\n", None)],
)  # fmt: skip
def test_parse_summary(answer: str, summary: str | None) -> None:
    assert parse_summary(answer) == summary
