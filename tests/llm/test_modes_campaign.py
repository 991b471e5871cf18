"""A one-dialogue campaign through `backend = "openai"` against a server that takes only
some JSON spellings (the fake, taught llama-cpp-python's refusal of json_schema)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

LLAMA_CPP_PYTHON = frozenset({"text", "json_object"})


def scenario(tmp_path: Path, url: str, **model: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "modes",
            "model": {"backend": "openai", "model": "m", "base_url": url, **model},
            "data": {"n_samples": 1},
            "protocol": {"max_turns": 1},
            "campaign": {"output_dir": str(tmp_path / "runs")},
            "cache": {"enabled": False},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )


def formats(srv: FakeOpenAIServer) -> list[str | None]:
    return [(b.get("response_format") or {}).get("type") for b in srv.chat_bodies()]


@pytest.mark.parametrize(
    ("accepted", "mode", "probes", "structured"),
    [
        (LLAMA_CPP_PYTHON, "auto", ["json_schema", "json_object"], "json_object"),
        (None, "auto", ["json_schema"], "json_schema"),
        (frozenset({"text"}), "auto", ["json_schema", "json_object", None], None),
        (LLAMA_CPP_PYTHON, "json_object", [], "json_object"),
        (frozenset({"text"}), "prompt", [], None),
        (None, "vllm", [], "json_schema"),
    ],
)
async def test_a_campaign_runs_in_every_mode(
    tmp_path: Path,
    accepted: frozenset[str] | None,
    mode: str,
    probes: list[str | None],
    structured: str | None,
) -> None:
    async with FakeOpenAIServer(response_formats=accepted) as srv:
        result = await run_campaign_async(
            scenario(tmp_path, srv.base_url, structured_outputs=mode), progress=False
        )
    assert (result.stored, result.expected, result.status) == (1, 1, "finished")
    sent = formats(srv)
    assert sent[: len(probes)] == probes
    campaign = sent[len(probes) :]
    # Sample preparation (2 calls) and the dialogue: the user's turns are text, the rest JSON.
    assert len(campaign) > 5 and set(campaign) <= {structured, None}
    assert campaign.count(structured) >= 4


async def test_a_spelling_the_server_refuses_stops_the_campaign_in_one_line(
    tmp_path: Path,
) -> None:
    async with FakeOpenAIServer(response_formats=LLAMA_CPP_PYTHON) as srv:
        sc = scenario(tmp_path, srv.base_url, structured_outputs="openai", max_retries=3)
        with pytest.raises(ModelUnavailableError) as info:
            await run_campaign_async(sc, progress=False)
        # Sample preparation's own 3 attempts, none of them retried by the client.
        assert formats(srv) == ["json_schema"] * 3
    line = str(info.value)
    assert "\n" not in line
    assert line.endswith(
        f"{srv.base_url} rejected the request as malformed (HTTP 500: response_format.type: "
        "Input should be 'json_object' or 'text'); if it does not take response_format "
        'json_schema, set [model] structured_outputs to "json_object" or "prompt" or "auto"'
    )
    # Only the output folder's claim lock (shared by all starters) may be there.
    left = (
        {p.name for p in (tmp_path / "runs").iterdir()} if (tmp_path / "runs").exists() else set()
    )
    assert left <= {".claim.lock"}
