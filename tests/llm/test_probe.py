"""`structured_outputs = "auto"`: the probe, its cache, and what preflight makes of it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from autogen_core.models import LLMMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.cli import main
from macrs_sim.config import EmbeddedModel, OpenAIModel, parse_scenario, scenario_to_toml
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm import build_openai_client, preflight
from macrs_sim.llm.factory import preflight_scenario
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.probe import known_mode

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

LLAMA_CPP_PYTHON = frozenset({"text", "json_object"})
PROMPT: list[LLMMessage] = [UserMessage(content="Hi", source="user")]
REJECTED_JSON_SCHEMA = (
    "the server rejected response_format json_schema: HTTP 500 response_format.type: "
    "Input should be 'json_object' or 'text'"
)


class Answer(BaseModel):
    answer: str


def auto(srv: FakeOpenAIServer, **kw: Any) -> OpenAIModel:
    return OpenAIModel.model_validate({"model": "m", "base_url": srv.base_url, **kw})


def kinds(srv: FakeOpenAIServer) -> list[str | None]:
    """The response_format type of each chat request, in order (None: none sent)."""
    return [(b.get("response_format") or {}).get("type") for b in srv.chat_bodies()]


def test_auto_is_the_default_only_for_own_servers() -> None:
    assert OpenAIModel(model="m").structured_outputs == "openai"
    assert OpenAIModel(model="m", base_url="http://h/v1").structured_outputs == "auto"
    assert OpenAIModel(model="m", base_urls=("http://a/v1",)).structured_outputs == "auto"
    given = OpenAIModel(model="m", base_url="http://h/v1", structured_outputs="vllm")
    assert given.structured_outputs == "vllm"


@pytest.mark.parametrize(
    ("accepted", "mode", "probes", "why"),
    [
        (None, "openai", ["json_schema"], "accepted as first tried"),
        (LLAMA_CPP_PYTHON, "json_object", ["json_schema", "json_object"], REJECTED_JSON_SCHEMA),
        (
            frozenset({"text"}),
            "prompt",
            ["json_schema", "json_object", None],
            REJECTED_JSON_SCHEMA.replace("'json_object' or 'text'", "'text'")
            + "; response_format json_object with a schema: HTTP 500 response_format.type: "
            "Input should be 'text'",
        ),
    ],
)
async def test_preflight_picks_the_first_mode_the_server_takes(
    accepted: frozenset[str] | None, mode: str, probes: list[str | None], why: str
) -> None:
    async with FakeOpenAIServer(response_formats=accepted) as srv:
        heard: list[str] = []
        resolved = await preflight(auto(srv, max_tokens=300), notify=heard.append)
        assert isinstance(resolved, OpenAIModel) and resolved.structured_outputs == mode
        assert resolved.max_tokens == 300  # only the mode changes
        assert kinds(srv) == probes
        assert all(b["max_tokens"] == 16 for b in srv.chat_bodies())  # probes are tiny
        prefix = f'model m at {srv.base_url}: structured_outputs = "{mode}"'
        assert heard[:-1] == [f"{prefix} ({why})"]  # then the context window's line
        # Remembered for the process: a second preflight sends nothing.
        assert await preflight(auto(srv)) == auto(srv).model_copy(
            update={"structured_outputs": mode}
        )
        assert len(srv.chat_bodies()) == len(probes)


async def test_a_client_left_on_auto_probes_once_at_its_first_structured_call() -> None:
    async with FakeOpenAIServer(response_formats=LLAMA_CPP_PYTHON) as srv:
        client = build_openai_client(auto(srv), temperature=0.0)
        await client.create(PROMPT)  # text: no probe needed, sent as in every mode
        assert kinds(srv) == [None]
        await asyncio.gather(*(client.create(PROMPT, json_output=Answer) for _ in range(5)))
        assert kinds(srv) == [None, "json_schema", "json_object"] + ["json_object"] * 5
        assert known_mode(srv.base_url + "/", "m") == "json_object"
        await client.close()


async def test_a_pool_gets_a_mode_every_endpoint_takes() -> None:
    async with (
        FakeOpenAIServer() as full,
        FakeOpenAIServer(response_formats=LLAMA_CPP_PYTHON) as partial,
    ):
        cfg = OpenAIModel(model="m", base_urls=(full.base_url, partial.base_url))
        heard: list[str] = []
        resolved = await preflight(cfg, notify=heard.append)
        assert isinstance(resolved, OpenAIModel)
        assert resolved.structured_outputs == "json_object"
        assert heard[0].startswith(f"model m at {partial.base_url} (of 2 endpoints): ")


async def test_a_server_refusing_even_plain_requests_fails_in_one_line() -> None:
    async with FakeOpenAIServer() as srv:
        srv.fail(400, times=3)
        with pytest.raises(ModelUnavailableError) as info:
            await preflight(auto(srv))
        assert str(info.value) == (
            f"{srv.base_url}: the server rejected every way of asking for JSON, even a plain "
            "request: HTTP 400 fake failure"
        )


async def test_an_error_not_about_the_format_stops_the_probe() -> None:
    async with FakeOpenAIServer() as srv:
        srv.fail(404)
        with pytest.raises(ModelUnavailableError) as info:
            await preflight(auto(srv))
        assert str(info.value) == (
            f"{srv.base_url}: probing which structured outputs the server accepts failed "
            "(HTTP 404 fake failure)"
        )
        assert len(srv.chat_bodies()) == 1


async def test_preflight_scenario_replaces_auto_wherever_the_model_appears(
    tmp_path: Path,
) -> None:
    async with FakeOpenAIServer(response_formats=LLAMA_CPP_PYTHON) as srv:
        model = {"backend": "openai", "model": "m", "base_url": srv.base_url}
        sc = parse_scenario(
            {
                "name": "probe",
                "model": model,
                "simulator": {"model": model},
                "systems": [{"name": "MACRS", "kind": "macrs", "model": model}],
                "judge": {"enabled": True},
            }
        )
        heard: list[str] = []
        resolved = await preflight_scenario(sc, [sc.model], heard.append)
    spelled = OpenAIModel(model="m", base_url=srv.base_url, structured_outputs="json_object")
    assert resolved.model == resolved.simulator.model == resolved.systems[0].model == spelled
    assert resolved.judge.model is None  # absent stays absent
    assert 'structured_outputs = "json_object"' in scenario_to_toml(resolved)
    assert len(heard) == 2  # the mode, then the context window
    untouched = parse_scenario({"name": "e", "systems": [{"name": "S", "kind": "macrs"}]})
    assert isinstance(untouched.model, EmbeddedModel)


def test_models_check_prints_the_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeOpenAIServer(response_formats=LLAMA_CPP_PYTHON).run_in_thread() as srv:
        scenario = tmp_path / "s.toml"
        scenario.write_text(
            f'name = "c"\n[model]\nbackend = "openai"\nmodel = "m"\nbase_url = "{srv.base_url}"\n'
            '[simulator]\nkind = "agenda"\n[[systems]]\nname = "S"\nkind = "macrs"\n',
            encoding="utf-8",
        )
        assert main(["models", "check", str(scenario)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f'model m at {srv.base_url}: structured_outputs = "json_object" ({REJECTED_JSON_SCHEMA})',
        f"model m at {srv.base_url}: context window 32,768 tokens (a guess: neither the server"
        " nor [model] n_ctx says)",
        "ok: openai model reachable",
    ]


@pytest.mark.parametrize("body", [{"choices": "nope"}, {"message": "sign in first"}])
async def test_a_reply_that_is_no_chat_completion_fails_in_one_line(
    fake_openai: Any, body: dict[str, Any]
) -> None:
    # A proxy's page or a server that is not OpenAI-compatible answers 200 with another body:
    # one line naming the endpoint, never the SDK's AttributeError traceback.
    fake_openai.queue(200, body)
    cfg = OpenAIModel(model="m", base_url=fake_openai.url)
    with pytest.raises(ModelUnavailableError) as info:
        await preflight(cfg)
    assert str(info.value).startswith(
        f"{fake_openai.url}: probing which structured outputs the server accepts failed (its "
        "reply is not an OpenAI chat completion: "
    )
    assert "\n" not in str(info.value)
