"""A base URL with userinfo (`http://user:pw@host/v1`, a reverse proxy's basic auth) is
sent as `Authorization: Basic base64(user:pw)` (URL-decoded first) to the URL without the
userinfo, by both clients and the auto probe; the userinfo wins over an API key (one
Authorization header); the credentials never appear in an error or a message."""

from __future__ import annotations

import base64

import pytest
from autogen_core.models import UserMessage

from macrs_sim.config import OpenAIModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.factory import preflight
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.lean.build import build_lean_client
from macrs_sim.llm.openai_backend import api_key, build_openai_client
from macrs_sim.llm.probe import forget_probes

# "us@er" and "p:w" percent-encoded, as a URL must carry them.
USERINFO = "us%40er:p%3Aw"
BASIC = "Basic dXNAZXI6cDp3"
BUILD = {"lean": build_lean_client, "sdk": build_openai_client}


def with_userinfo(srv: FakeOpenAIServer) -> str:
    return srv.base_url.replace("http://", f"http://{USERINFO}@")


def model(url: str, client: str, **more: object) -> OpenAIModel:
    fields = {"model": "fake", "base_url": url, "api_key_env": None, "client": client}
    return OpenAIModel.model_validate(fields | more)


def test_the_basic_credentials_are_the_decoded_userinfo() -> None:
    assert base64.b64decode(BASIC.removeprefix("Basic ")) == b"us@er:p:w"


@pytest.mark.parametrize("client", ["lean", "sdk"])
async def test_preflight_the_probe_and_calls_send_basic_auth_to_the_bare_url(client: str) -> None:
    forget_probes()
    news: list[str] = []
    async with FakeOpenAIServer() as srv:
        cfg = model(with_userinfo(srv), client)
        resolved = await preflight(cfg, news.append)  # GET /models, then the probe
        assert isinstance(resolved, OpenAIModel) and resolved.structured_outputs == "openai"
        llm = BUILD[client](resolved, temperature=0.0)
        reply = await llm.create([UserMessage(content="hi", source="user")])
        await llm.close()
    assert isinstance(reply.content, str)
    sent = [(r.method, r.path) for r in srv.requests]
    assert sent == [("GET", "/v1/models"), *[("POST", "/v1/chat/completions")] * 2]
    assert [r.headers["authorization"] for r in srv.requests] == [BASIC] * 3
    assert all(r.headers["host"] == f"127.0.0.1:{srv.ports[0]}" for r in srv.requests)
    assert news == [
        f'model fake at http://***@127.0.0.1:{srv.ports[0]}/v1: structured_outputs = "openai" '
        "(accepted as first tried)",
        f"model fake at http://***@127.0.0.1:{srv.ports[0]}/v1: context window 32,768 tokens"
        " (a guess: neither the server nor [model] n_ctx says)",
    ]


@pytest.mark.parametrize("client", ["lean", "sdk"])
async def test_the_userinfo_wins_over_an_api_key(
    client: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("H27_KEY", "sk-not-sent-1234")
    async with FakeOpenAIServer() as srv:
        cfg = model(with_userinfo(srv), client, api_key_env="H27_KEY", structured_outputs="prompt")
        llm = BUILD[client](cfg, temperature=0.0)
        await llm.create([UserMessage(content="hi", source="user")])
        await llm.close()
    (call,) = srv.requests
    assert call.headers["authorization"] == BASIC
    assert "sk-not-sent-1234" not in str(call.headers)


def test_a_remote_url_with_userinfo_needs_no_api_key() -> None:
    assert api_key(model("https://u:pw@proxy.example/v1", "lean")) == "EMPTY"
    with pytest.raises(ModelUnavailableError, match="api_key_env: not set"):
        api_key(model("https://proxy.example/v1", "lean"))


@pytest.mark.parametrize("client", ["lean", "sdk"])
async def test_a_401_echoing_the_credentials_is_scrubbed(client: str) -> None:
    async with FakeOpenAIServer() as srv:
        srv.fail(401)  # the fake echoes the Authorization header it got, as some servers do
        cfg = model(with_userinfo(srv), client, structured_outputs="prompt")
        llm = BUILD[client](cfg, temperature=0.0)
        with pytest.raises(Exception) as caught:
            await llm.create([UserMessage(content="hi", source="user")])
        await llm.close()
    text = f"{caught.value} {caught.value!r} {getattr(caught.value, 'body', '')}"
    assert "refused the request (HTTP 401" in text
    assert f"http://127.0.0.1:{srv.ports[0]}/v1" in text
    for secret in ("dXNAZXI6cDp3", "p:w", "p%3Aw", USERINFO):
        assert secret not in text


@pytest.mark.parametrize("client", ["lean", "sdk"])
async def test_a_probe_refused_names_the_endpoint_redacted(client: str) -> None:
    forget_probes()
    async with FakeOpenAIServer() as srv:
        srv.fail(403)
        with pytest.raises(ModelUnavailableError) as caught:
            await preflight(model(with_userinfo(srv), client))
    assert str(caught.value).startswith(f"http://***@127.0.0.1:{srv.ports[0]}/v1: probing")
    assert "p%3Aw" not in str(caught.value)
