"""The project's own corpus form (one dialogue a line, turns with a speaker and text)."""

from __future__ import annotations

import json
from pathlib import Path

from macrs_sim.data.corpora import CorpusStats, CorpusTurn, Recommendation, read_corpus

DIALOGUE = {
    "id": "o1",
    "turns": [
        {"speaker": "seeker", "text": "I'd like a funny  animated film about toys."},
        {"speaker": "recommender", "text": "Toy Story?", "titles": ["Toy Story (1995)"]},
        {"speaker": "user", "text": "Yes, that's it!"},
    ],
    "recommendations": [{"title": "Toy Story (1995)", "turn": 1, "answer": "accepted"}],
}


def test_the_turns_form_reads_speakers_titles_and_answers(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    bad = {"id": "x", "turns": [{"speaker": "narrator", "text": "Once"}]}
    wrong_turn = {**DIALOGUE, "recommendations": [{"title": "T", "turn": 7}]}
    rows = [DIALOGUE, bad, wrong_turn]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    stats = CorpusStats()
    (d,) = read_corpus(path, stats)
    assert d.turns == (
        CorpusTurn("seeker", "I'd like a funny animated film about toys."),
        CorpusTurn("recommender", "Toy Story?", ("Toy Story (1995)",)),
        CorpusTurn("seeker", "Yes, that's it!"),
    )
    assert d.recommendations == (Recommendation("Toy Story (1995)", 1, "accepted"),)
    assert d.sought == "Toy Story (1995)"
    assert stats.skipped == {
        "unknown speaker 'narrator'": 1,
        "a recommendation's turn 7 is not a turn of the dialogue": 1,
    }
    assert stats.form == "turns"
