"""The loop campaigns run on: uvloop by default where installed, asyncio's on request, the
same stored dialogues on both."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign import event_loop
from macrs_sim.campaign.event_loop import resolved, run_async
from macrs_sim.config import parse_scenario
from macrs_sim.errors import ConfigError
from tests.agents.fingerprint import FIXTURE, campaign_fingerprints

uvloop = pytest.importorskip("uvloop", reason="uvloop (a core dependency on Linux)")


async def _loop_type() -> str:
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def _without_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        event_loop.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "uvloop" else real(name, *a),
    )


def test_auto_and_uvloop_run_on_uvloop_and_asyncio_on_asyncio() -> None:
    assert run_async(_loop_type()) == "uvloop"
    assert run_async(_loop_type(), "uvloop") == "uvloop"
    assert run_async(_loop_type(), "asyncio") == "asyncio"
    assert (resolved("auto"), resolved("asyncio")) == ("uvloop", "asyncio")


def test_auto_falls_back_to_asyncio_where_uvloop_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _without_uvloop(monkeypatch)
    assert run_async(_loop_type()) == "asyncio"
    assert resolved("auto") == "asyncio"


def test_asking_for_a_missing_uvloop_is_one_line_and_the_coroutine_never_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _without_uvloop(monkeypatch)
    ran: list[bool] = []

    async def work() -> None:
        ran.append(True)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine ... was never awaited" would be a warning
        with pytest.raises(ConfigError) as caught:
            run_async(work(), "uvloop")
    assert str(caught.value) == (
        "campaign.event_loop = 'uvloop', but uvloop is not installed "
        "(pip install uvloop, or use 'auto' or 'asyncio')"
    )
    assert ran == []


def test_the_scenario_field_takes_the_three_choices_and_refuses_others() -> None:
    def scenario(loop: Any) -> Any:
        table = {"name": "x", "systems": [{"name": "s", "kind": "single_llm"}]}
        return parse_scenario({**table, "campaign": {"event_loop": loop}})

    assert scenario("asyncio").campaign.event_loop == "asyncio"
    default = parse_scenario({"name": "x", "systems": [{"name": "s", "kind": "single_llm"}]})
    assert default.campaign.event_loop == "auto"
    with pytest.raises(ConfigError, match="event_loop"):
        scenario("trio")


def test_the_stored_dialogues_are_the_same_on_uvloop(tmp_path: Path) -> None:
    # The fixture was written on asyncio's loop; the same 32 dialogues come back on uvloop.
    expected = json.loads(FIXTURE.read_text())
    got = run_async(campaign_fingerprints(tmp_path), "uvloop")
    assert json.loads(json.dumps(got, sort_keys=True)) == expected
