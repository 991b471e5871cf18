"""Every count and size has an upper bound; a scenario name is a plain file name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from macrs_sim.config import load_scenario, parse_scenario
from macrs_sim.errors import ConfigError

SYSTEMS = [{"name": "S", "kind": "macrs"}]


def error_of(data: dict[str, Any]) -> str:
    with pytest.raises(ConfigError) as err:
        parse_scenario({"name": "t", "systems": SYSTEMS, **data}, "s.toml")
    return str(err.value)


@pytest.mark.parametrize(
    ("data", "line"),
    [
        (
            {"protocol": {"max_turns": 1_000_000_000}},
            "s.toml: protocol.max_turns: must be ≤ 100 (no study needs more), found 1000000000",
        ),
        (
            {"protocol": {"max_turns": 101}},
            "s.toml: protocol.max_turns: must be ≤ 100 (no study needs more), found 101",
        ),
        (
            {"data": {"n_samples": 1_000_001}},
            "s.toml: data.n_samples: must be ≤ 1,000,000 (no study needs more), found 1000001",
        ),
        (
            {"model": {"backend": "openai", "model": "m", "timeout_s": 86_401}},
            "s.toml: model.openai.timeout_s: must be ≤ 86,400 (no study needs more), found 86401",
        ),
        (
            {"protocol": {"temperature": 2.5}},
            "s.toml: protocol.temperature: must be ≤ 2, found 2.5",
        ),
        (
            {"faults": {"rate": 1.5}},
            "s.toml: faults.rate: must be ≤ 1, found 1.5",
        ),
    ],
)
def test_upper_bounds(data: dict[str, Any], line: str) -> None:
    assert error_of(data) == line


def test_bounds_themselves_are_accepted() -> None:
    scenario = parse_scenario(
        {
            "name": "t",
            "systems": SYSTEMS,
            "protocol": {"max_turns": 100, "final_list_k": 1000},
            "data": {"n_samples": 1_000_000},
            "campaign": {"concurrency": 10_000},
            "model": {"backend": "embedded", "n_ctx": 1_048_576, "max_tokens": 1_048_576},
        }
    )
    assert (scenario.protocol.max_turns, scenario.campaign.concurrency) == (100, 10_000)


@pytest.mark.parametrize("name", ["paper_table1", "agenda-demo", "v1.2", "A", "x" * 100, "..a"])
def test_plain_names(name: str) -> None:
    assert parse_scenario({"name": name, "systems": SYSTEMS}).name == name


@pytest.mark.parametrize("name", ["../../x", "/abs", "a/b", "a\\b", ".", "..", "", "a b", "é"])
def test_names_that_are_not_plain(name: str) -> None:
    assert error_of({"name": name}) == (
        f"s.toml: name: {name!r} is not a plain name: use letters, digits, '-', '_' and '.'"
        " only (it names the run directory)"
    )


def test_scenario_with_bom_and_crlf_loads(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_bytes(b'\xef\xbb\xbfname = "t"\r\n[[systems]]\r\nname = "S"\r\nkind = "macrs"\r\n')
    assert load_scenario(path).name == "t"
