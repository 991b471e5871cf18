"""Building the command line's parser imports none of the heavy parts (issue 29): the
model clients, torch, the tools, the figures, the frames, the system registry. Each
command's handler imports what it needs when it runs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = (
    "openai",
    "torch",
    "matplotlib",
    "pandas",
    "macrs_sim.tools",
    "macrs_sim.agents.registry",
    "macrs_sim.evaluation.recmind.contract",
)


def loaded_after(code: str) -> dict[str, bool]:
    """Which of HEAVY a fresh interpreter holds after running `code`."""
    probe = (
        f"import json, sys\n{code}\nprint(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    return dict(json.loads(out.stdout.splitlines()[-1]))


def test_building_the_parser_imports_nothing_heavy() -> None:
    loaded = loaded_after("from macrs_sim.cli import build_parser\nbuild_parser()")
    assert loaded == dict.fromkeys(HEAVY, False)


def test_top_level_help_imports_nothing_heavy() -> None:
    code = (
        "from macrs_sim.cli import build_parser\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    build_parser().parse_args(['--help'])"
    )
    assert loaded_after(code) == dict.fromkeys(HEAVY, False)


def test_the_recmind_protocol_package_is_light_until_a_name_is_used() -> None:
    # Importing it (every submodule import runs it) loads no contract, tools or clients ...
    loaded = loaded_after("import macrs_sim.evaluation.recmind.tasks")
    assert loaded["macrs_sim.evaluation.recmind.contract"] is False
    assert loaded["macrs_sim.tools"] is False and loaded["openai"] is False
    # ... and its names still resolve, to their definitions.
    code = (
        "from macrs_sim.evaluation.recmind import TaskSolver\n"
        "assert TaskSolver.__module__ == 'macrs_sim.evaluation.recmind.contract'"
    )
    assert loaded_after(code)["macrs_sim.evaluation.recmind.contract"] is True


def test_an_unknown_name_of_the_recmind_package_is_an_attribute_error() -> None:
    import macrs_sim.evaluation.recmind as recmind

    with pytest.raises(AttributeError, match="has no attribute 'Nope'"):
        _ = recmind.Nope


def test_parsing_another_command_loads_no_system() -> None:
    code = "from macrs_sim.cli import build_parser\nbuild_parser().parse_args(['run', 'x.toml'])"
    assert loaded_after(code) == dict.fromkeys(HEAVY, False)
