"""Issue 40 §1: a served model's real context window, learned from its model list (vLLM's
max_model_len), from its first "maximum context length" refusal, or from `[model] n_ctx`;
a refused prompt is cut to fit and sent once more. Against the fake server on 127.0.0.1,
which refuses over-long prompts in vLLM's and llama-cpp-python's words."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import openai
import pytest
from autogen_core.models import SystemMessage, UserMessage

from macrs_sim.config import OpenAIModel
from macrs_sim.llm import build_openai_client, preflight
from macrs_sim.llm.context_window import forget_windows
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.lean import build_lean_client

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    forget_windows()
    yield
    forget_windows()


@pytest.fixture
async def server() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer(model="m", context_tokens=1000) as srv:
        yield srv


def cfg(srv: FakeOpenAIServer, **kw: object) -> OpenAIModel:
    fields = {"model": "m", "base_url": srv.base_url, "structured_outputs": "openai",
              "max_tokens": 200, "max_retries": 0}  # fmt: skip
    return OpenAIModel.model_validate({**fields, **kw})


async def test_models_check_prints_the_listed_window(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server.list_window = True
    heard: list[str] = []
    checked = await preflight(cfg(server), notify=heard.append)
    assert heard == [
        f"model m at {server.base_url}: context window 1,000 tokens (the server's model"
        " list: max_model_len)"
    ]
    assert isinstance(checked, OpenAIModel) and checked.n_ctx == 1000
    client = build_openai_client(checked, temperature=0.0)
    assert client.remaining_tokens([]) == 1000


async def test_without_a_listing_the_setting_or_a_guess_is_said(server: FakeOpenAIServer) -> None:
    heard: list[str] = []
    await preflight(cfg(server), notify=heard.append)
    await preflight(cfg(server, n_ctx=2048), notify=heard.append)
    assert heard == [
        f"model m at {server.base_url}: context window 32,768 tokens (a guess: neither the"
        " server nor [model] n_ctx says)",
        f"model m at {server.base_url}: context window 2,048 tokens ([model] n_ctx)",
    ]


@pytest.mark.parametrize("build", [build_lean_client, build_openai_client])
async def test_a_refused_prompt_is_cut_and_sent_once_more(
    server: FakeOpenAIServer, build: Any
) -> None:
    """4,000 characters are ~1,000 tokens: with 200 for the reply, over the 1,000 served."""
    client = build(cfg(server), temperature=0.0)
    assert client.remaining_tokens([]) == 32_768  # nothing known yet
    long = "row " * 1000
    messages = [SystemMessage(content="Answer briefly."), UserMessage(content=long, source="u")]
    result = await client.create(messages)
    assert result.content == "Hello from the fake server."
    bodies = server.chat_bodies()
    assert len(bodies) == 2  # the refused one, then the fitted one
    sent = bodies[1]["messages"][1]["content"]
    assert "characters cut to fit the model's context of 1,000 tokens" in sent
    assert sent.startswith("row row") and sent.rstrip().endswith("row")
    prompt = sum(len(m["content"]) for m in bodies[1]["messages"]) // 4 + 1
    assert prompt + 200 <= 1000
    # Learned for every client of the endpoint: the next prompt builder fits it first.
    assert client.remaining_tokens([]) == 1000
    assert build(cfg(server), temperature=0.0).remaining_tokens([]) == 1000


async def test_a_reply_that_cannot_fit_is_one_line(server: FakeOpenAIServer) -> None:
    client = build_lean_client(cfg(server, max_tokens=1000), temperature=0.0)
    with pytest.raises(openai.BadRequestError) as err:
        await client.create([UserMessage(content="hi " * 50, source="u")])
    assert str(err.value).startswith(
        f"{server.base_url} refused the request: the prompt and the reply's"
        " max_tokens do not fit the model's context of 1,000 tokens, even with the prompt cut"
        " (HTTP 400: This model's maximum context length is 1000 tokens."
    )
    assert "\n" not in str(err.value)
    assert len(server.chat_bodies()) == 1  # nothing to cut that would help: not sent again


async def test_a_smaller_setting_wins_over_the_listing(server: FakeOpenAIServer) -> None:
    server.list_window = True
    checked = await preflight(cfg(server, n_ctx=512))
    assert isinstance(checked, OpenAIModel) and checked.n_ctx == 512
    assert build_lean_client(checked, temperature=0.0).remaining_tokens([]) == 512
