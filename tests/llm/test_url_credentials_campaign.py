"""A campaign against a server behind basic auth in its base URL: every request carries
the credentials, and no file of the run, no log line and no message shows them, also when
the server refuses them with a 401 that echoes them back (the campaign stops on it)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.probe import forget_probes

USERINFO = "h27user:s3cr%3At-pw"  # the password is "s3cr:t-pw"
BASIC_TOKEN = "aDI3dXNlcjpzM2NyOnQtcHc="  # base64("h27user:s3cr:t-pw")
SECRETS = (USERINFO, "s3cr:t-pw", "s3cr%3At-pw", BASIC_TOKEN)


@pytest.mark.parametrize("client", ["lean", "sdk"])
async def test_a_campaign_sends_and_never_shows_url_credentials(
    tmp_path: Path, client: str, caplog: pytest.LogCaptureFixture
) -> None:
    forget_probes()
    caplog.set_level(logging.DEBUG)
    news: list[str] = []
    async with FakeOpenAIServer() as srv:
        url = srv.base_url.replace("http://", f"http://{USERINFO}@")
        scenario = parse_scenario(
            {
                "name": "creds",
                "model": {"backend": "openai", "model": "fake", "base_url": url,
                          "api_key_env": None, "client": client, "max_retries": 0},
                "data": {"n_samples": 3},
                "protocol": {"max_turns": 1},
                "systems": [{"name": "single", "kind": "single_llm"}],
            }
        )  # fmt: skip
        result = await run_campaign_async(
            scenario, output_dir=tmp_path / "runs", progress=False, notify=news.append
        )
        srv.fail(401, times=1000)  # echoes "Incorrect API key provided: Basic ..."
        with pytest.raises(ModelUnavailableError) as refused:
            await run_campaign_async(
                scenario,
                output_dir=tmp_path / "refused",  # a cache of its own: every call is sent
                progress=False,
                notify=news.append,
            )
    assert {r.headers["authorization"] for r in srv.requests} == {f"Basic {BASIC_TOKEN}"}
    resolved = (result.run_dir / "scenario.resolved.toml").read_text()
    assert f'base_url = "http://***@127.0.0.1:{srv.ports[0]}/v1"' in resolved
    assert result.status == "finished" and result.stored == 3
    assert f"http://127.0.0.1:{srv.ports[0]}/v1 refused the request (HTTP 401" in str(refused.value)
    shown = [*news, caplog.text, str(refused.value), repr(refused.value)]
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len(files) >= 6
    for path in files:
        data = path.read_bytes()
        assert not [s for s in SECRETS if s.encode() in data], path
    assert not [s for s in SECRETS if any(s in line for line in shown)]
