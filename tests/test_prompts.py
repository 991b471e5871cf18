"""Prompt overrides are checked when the library is made: sections and placeholders."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.errors import ConfigError
from macrs_sim.prompts import PromptLibrary

TARGET = """[system]
You write profiles.
[user_no_people]
Plot: $description
[user]
Film: $description
"""


def library(tmp_path: Path, text: str, name: str = "target_profile") -> PromptLibrary:
    (tmp_path / f"{name}.txt").write_text(text, encoding="utf-8")
    return PromptLibrary(tmp_path)


def error_of(tmp_path: Path, text: str, name: str = "target_profile") -> str:
    with pytest.raises(ConfigError) as err:
        library(tmp_path, text, name)
    return str(err.value).replace(str(tmp_path), "P")


def test_a_good_override_is_used_and_hashed_once_used(tmp_path: Path) -> None:
    prompts = library(tmp_path, TARGET.replace("Film:", "Movie:"))
    assert prompts.hashes() == {}  # only templates a run uses are recorded
    assert prompts.get("target_profile").render("user", description="Heat") == "Movie: Heat"
    assert list(prompts.hashes()) == ["target_profile"]
    assert prompts.get("planner").sections["user"].startswith("Dialogue history:")  # package's


def test_dollar_escape_is_fine(tmp_path: Path) -> None:
    prompts = library(tmp_path, TARGET.replace("Film:", "Film ($$5):"))
    assert prompts.get("target_profile").render("user", description="Up") == "Film ($5): Up"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (
            TARGET + "Mood: $mood\n",
            "prompts_dir: P/target_profile.txt [user]: unknown placeholder $mood"
            " (this section has: $description)",
        ),
        (
            TARGET.replace("$description", "the film"),
            "prompts_dir: P/target_profile.txt [user]: placeholder $description is missing"
            " (this section needs: $description)",
        ),
        (
            TARGET.replace("You write", "You $ write"),
            "prompts_dir: P/target_profile.txt [system]: a '$' not followed by a placeholder"
            " name (write $$ for a dollar sign)",
        ),
        (
            TARGET.replace("[system]", "[sys]"),
            "prompts_dir: P/target_profile.txt: missing section [system]",
        ),
        (
            TARGET + "[extra]\nhi\n",
            "prompts_dir: P/target_profile.txt: unknown section [extra]",
        ),
        ("no headers\n", "prompt 'P/target_profile.txt': no [section] headers found"),
    ],
)
def test_bad_overrides(tmp_path: Path, text: str, line: str) -> None:
    assert error_of(tmp_path, text) == line


def test_unknown_file_name(tmp_path: Path) -> None:
    line = error_of(tmp_path, TARGET, name="target_profil")
    assert line.startswith("prompts_dir: P/target_profil.txt: no such prompt (expected one of: ")
    assert "target_profile.txt" in line


def test_placeholder_the_package_uses_in_another_section_is_still_unknown(
    tmp_path: Path,
) -> None:
    line = error_of(tmp_path, TARGET.replace("You write", "You write $description"))
    assert line == (
        "prompts_dir: P/target_profile.txt [system]: unknown placeholder $description"
        " (this section has: none)"
    )
