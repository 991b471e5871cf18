"""Every command the docs show (README.md, docs/*.md: fenced bash/sh/console blocks) runs.

Commands that need a network, a GPU, a model download, a dataset download or a long real-model
run are skipped by prefix in SKIP, each with its reason. The rest run in tmp_path, with the
repo's scenarios copied there and switched to the scripted backend; a placeholder run folder
(`runs/NAME-...`) becomes one of two scripted quickstart runs made once for the module.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELLS = {"bash", "sh", "console", "shell"}
CLI = str(Path(sys.executable).parent / "macrs-sim")

SKIP: dict[str, str] = {
    "./scripts/quickstart": "installs the embedded extra and runs the real model",
    "./scripts/test": "the whole suite, real-model and browser tests included",
    "macrs-sim data prepare movielens ~/Downloads": "needs the MovieLens download",
    "macrs-sim samples build scenarios/movielens.toml": "needs the prepared MovieLens database",
    "macrs-sim run scenarios/movielens.toml": "needs the prepared MovieLens database",
    "macrs-sim models check scenarios/my_campaign.toml": "the reader's own scenario and servers",
    "macrs-sim run scenarios/my_campaign.toml": "the reader's own scenario and servers",
    "macrs-sim report runs/paper_table1-... --case": "names a case of a 100-sample paper run",
    "macrs-sim judge": "Table 2's LLM judge on a paper run with the judge scenario",
    "macrs-sim chat": "interactive, on the embedded model",
    "macrs-sim compare RUN_A RUN_B": "RUN_A and RUN_B stand for any two runs",
    "macrs-sim report /tmp/w11": "a transcript of one chat run on the embedded model",
    "macrs-sim eval interecagent session": "a session campaign on the embedded model",
    "macrs-sim eval interecagent requests data/": "needs MovieLens and a GPT-4 user server",
    "macrs-sim eval interecagent one-turn data/": "needs MovieLens and the reader's server",
    "macrs-sim eval interecagent one-turn demo": "trains SASRec and runs the embedded model",
    "macrs-sim eval recmind rating data/": "needs MovieLens and the reader's server",
    "macrs-sim eval recmind summary data/": "needs an Amazon download kept with --keep-text",
    "macrs-sim models train sasrec data/": "needs MovieLens; 50 epochs of SASRec",
    "macrs-sim models train itemcf demo --sample-set samples/demo.jsonl": (
        "needs samples/demo.jsonl, which no docs command builds"
    ),
    "macrs-sim eval sequential data/": "needs MovieLens; trains four rankers",
}
# Placeholder run folders: the first and second scripted quickstart runs stand in for them.
# `runs/NAME-...` is the folder; `(NAME-...)` in a system label is the same run's name.
PLACEHOLDER_RUN = re.compile(r"(runs/|\()([A-Za-z0-9_]+)-(?:\.\.\.|YYYYMMDD-HHMMSS)")


def with_runs(command: str, runs: list[Path]) -> str:
    """Placeholder runs replaced by `runs` in order of first mention; a name seen again is
    the same run."""
    taken: dict[str, Path] = {}

    def run_for(match: re.Match[str]) -> str:
        if match[2] not in taken:
            taken[match[2]] = runs[len(taken)]
        run = taken[match[2]]
        return str(run) if match[1] == "runs/" else f"({run.name}"

    return PLACEHOLDER_RUN.sub(run_for, command)


def shell_commands(markdown: str) -> list[str]:
    """Commands of the fenced shell blocks: `$ ` lines of console blocks (the rest is
    output), every line of bash/sh blocks; `\\` continuations joined, comments and blanks
    dropped, the trailing `# comment` cut."""
    commands: list[str] = []
    lang: str | None = None
    pending = ""
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            lang = stripped[3:].strip() if lang is None else None
            continue
        if lang not in SHELLS:
            continue
        if lang == "console" and not pending:
            if not stripped.startswith("$ "):
                continue
            stripped = stripped[2:]
        stripped = re.sub(r"\s+#.*$", "", stripped)
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1].strip() + " "
            continue
        commands.append(pending + stripped)
        pending = ""
    return commands


def normalised(command: str) -> str:
    return command.removeprefix(".venv/bin/")


def skip_reason(command: str) -> str | None:
    return next(
        (why for prefix, why in SKIP.items() if normalised(command).startswith(prefix)), None
    )


def _collect() -> list[tuple[str, str]]:
    return [
        (f"{doc.relative_to(ROOT)}:{n}", command)
        for doc in DOCS
        for n, command in enumerate(shell_commands(doc.read_text(encoding="utf-8")))
    ]


COMMANDS = _collect()


def test_shell_commands_are_read_from_shell_blocks_only() -> None:
    text = (
        "```bash\n# a comment\nmacrs-sim run a.toml   # trailing\nmacrs-sim x \\\n  --y 1\n```\n"
        "```toml\nname = 'x'\n```\n"
        "```console\n$ macrs-sim chat\nsystem: hello # not a command\n$ ls -a\n```\n"
        "```\nmacrs-sim untagged\n```\n"
    )
    assert shell_commands(text) == [
        "macrs-sim run a.toml",
        "macrs-sim x --y 1",
        "macrs-sim chat",
        "ls -a",
    ]


def test_placeholder_runs_are_replaced_in_order_and_a_label_keeps_its_run() -> None:
    runs = [Path("/t/runs/q-1"), Path("/t/runs/q-2")]
    command = 'compare runs/a-... runs/b-YYYYMMDD-HHMMSS --reference "x (a-...)" runs/c'
    assert (
        with_runs(command, runs) == 'compare /t/runs/q-1 /t/runs/q-2 --reference "x (q-1)" runs/c'
    )


def test_every_skip_entry_still_matches_a_docs_command() -> None:
    used = {p for p in SKIP for _, c in COMMANDS if normalised(c).startswith(p)}
    assert sorted(set(SKIP) - used) == []


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """tmp copy of scenarios/ on the scripted backend and of the example downloads
    (examples/), and one scripted quickstart run."""
    work = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "scenarios", work / "scenarios")
    shutil.copytree(ROOT / "examples", work / "examples")
    for scenario in (work / "scenarios").glob("*.toml"):
        text = scenario.read_text(encoding="utf-8")
        scenario.write_text(text.replace('backend = "embedded"', 'backend = "scripted"'))
    for _ in range(2):  # two runs, for `compare A B`
        _run(f"{CLI} run scenarios/quickstart.toml --no-progress --no-resume", work)
    return work


def _run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "NO_COLOR": "1"}
    env.pop("OPENAI_API_KEY", None)
    done = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, f"{command!r} failed ({done.returncode}): {done.stderr[-2000:]}"
    return done


# Every shell command of the docs, run for real: the slow tier (the parsing tests above stay fast).
# One worker runs them all, in order: a page's commands build on each other (prepare, then
# samples build, then run).
@pytest.mark.soak
@pytest.mark.xdist_group("docs-commands")
@pytest.mark.parametrize(("where", "command"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_docs_command_runs(where: str, command: str, workdir: Path) -> None:
    reason = skip_reason(command)
    if reason is not None:
        pytest.skip(reason)
    line = with_runs(normalised(command), sorted((workdir / "runs").glob("quickstart-*")))
    if line.startswith("macrs-sim "):
        line = CLI + line.removeprefix("macrs-sim")
    _run(line, workdir)
