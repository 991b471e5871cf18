"""URL credentials are masked on screen and in every file a run writes."""

from __future__ import annotations

import pytest

from macrs_sim.config import OpenAIModel, parse_scenario, scenario_to_toml
from macrs_sim.redact import redact_text, redact_url, userinfo


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:secret@host/v1", "http://***@host/v1"),
        ("https://tok@host:8000/v1", "https://***@host:8000/v1"),
        ("http://a:b@c@host/v1?q=x@y", "http://***@host/v1?q=x@y"),  # unescaped @ in password
        ("user:pw@host/v1", "***@host/v1"),  # no scheme
        ("http://host/v1", "http://host/v1"),
        ("http://host/v1/users/a@b", "http://host/v1/users/a@b"),  # "@" in the path only
        ("http://[::1]:8000/v1", "http://[::1]:8000/v1"),
        ("", ""),
    ],
)
def test_redact_url(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_userinfo() -> None:
    assert userinfo("http://u:p@h/v1") == "u:p"
    assert userinfo("http://h/v1") is None


def test_redact_text_masks_the_password_quoted_apart() -> None:
    # http.client quotes only "port" text for a URL with userinfo: the password, not "u:pw".
    text = "endpoint unreachable (nonnumeric port: 'hunter22@h:1')"
    assert redact_text(text, ["http://u:hunter22@h:1/v1", None]) == (
        "endpoint unreachable (nonnumeric port: '***@h:1')"
    )
    assert redact_text("a b c", ["http://u:p@h/v1"]) == "a b c"  # too short to mask safely


def test_resolved_scenario_keeps_no_secret_but_memory_does() -> None:
    scenario = parse_scenario(
        {
            "name": "t",
            "model": {
                "backend": "openai",
                "model": "m",
                "base_urls": ["http://u:hunter22@a/v1", "http://b/v1"],
            },
            "simulator": {
                "model": {"backend": "openai", "model": "m", "base_url": "http://u:pw99@c/v1"}
            },
            "systems": [{"name": "S", "kind": "macrs"}],
        }
    )
    text = scenario_to_toml(scenario)
    assert "hunter22" not in text and "pw99" not in text
    assert 'base_urls = [\n    "http://***@a/v1",\n    "http://b/v1",\n]' in text
    assert 'base_url = "http://***@c/v1"' in text
    assert isinstance(scenario.model, OpenAIModel)
    assert scenario.model.base_urls[0] == "http://u:hunter22@a/v1"  # calls still send it
