"""Issue 38 §4 and §6: docs/faithfulness.md states the prompt lines added to the MACRS paper's
prompts that change what an agent does, quoting lines the prompt files really hold, and names
the papers' folder as the repository sees it, not by a path of one machine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from macrs_sim.prompts import PromptLibrary

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "faithfulness.md").read_text("utf-8")

# (prompt file, the added sentence as films' prompts say it, the page row that states it)
ADDED = [
    ("responder_ask", "Do not recommend a movie.", "| Responder instructions"),
    ("responder_chat", "Do not recommend a specific movie.", "| Responder instructions"),
    (
        "responder_recommend",
        "Recommend exactly one movie that the user has not mentioned yet.",
        "| Responder instructions",
    ),
    ("user_simulator", "decline it and hint at what you want instead", "| LLM user:"),
]


def _row(prefix: str) -> str:
    (row,) = [line for line in PAGE.splitlines() if line.startswith(prefix)]
    return row


@pytest.mark.parametrize(("prompt", "sentence", "row"), ADDED)
def test_each_added_line_is_in_its_prompt_and_stated_as_a_deviation(
    prompt: str, sentence: str, row: str
) -> None:
    template = PromptLibrary().get(prompt)
    assert any(sentence in text for text in template.sections.values()), prompt
    stated = _row(row)
    assert sentence in stated
    assert stated.split("|")[3].strip().startswith("deviates:")


def test_the_papers_folder_is_named_as_the_repository_sees_it() -> None:
    assert not re.search(r"(?<![.\w])/(?:work|home|root|tmp|Users)/", PAGE)
    assert "`../shared/seeds/`" in PAGE
