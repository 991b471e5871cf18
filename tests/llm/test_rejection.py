"""What counts as transient, and the server's complaint on one line."""

from __future__ import annotations

from typing import Any

import httpx
import openai
import pytest

from macrs_sim.llm.rejection import complaint, is_malformed
from macrs_sim.llm.retry import is_transient

# llama-cpp-python's 500 to response_format json_schema, as its server sends it.
LLAMA_CPP_PYTHON_500 = {
    "error": {
        "message": "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', "
        "'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\", "
        "'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}\n\n  "
        'File "/x/llama_cpp/server/app.py", line 376, in create_chat_completion\n    '
        "POST /v1/chat/completions",
        "type": "internal_server_error",
        "param": None,
        "code": None,
    }
}


def status_error(status: int, body: Any) -> openai.APIStatusError:
    """The SDK's own error for this reply, as it builds it from a response."""
    request = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")
    response = httpx.Response(status, json=body, request=request)
    client = openai.OpenAI(api_key="k", base_url="http://127.0.0.1:1/v1")
    return client._make_status_error_from_response(response)


@pytest.mark.parametrize(
    ("status", "body", "transient"),
    [
        (400, {"error": {"message": "bad"}}, False),
        (401, {"error": {"message": "no key"}}, False),
        (404, {"error": {"message": "no model"}}, False),
        (408, {"error": {"message": "request timeout"}}, True),
        (409, {"error": {"message": "conflict"}}, True),
        (422, {"detail": [{"loc": ["body", "top_k"], "msg": "bad"}]}, False),
        (429, {"error": {"message": "slow down"}}, True),
        (500, {"error": {"message": "CUDA error: out of memory"}}, True),
        (500, LLAMA_CPP_PYTHON_500, False),
        (500, {"error": {"message": "1 validation error for Req\nn\n  Field required"}}, False),
        (502, {"error": {"message": "bad gateway"}}, True),
        (503, {"error": {"message": "Input should be patient"}}, True),  # 503 is load
    ],
)
def test_transient_or_not(status: int, body: Any, transient: bool) -> None:
    err = status_error(status, body)
    assert is_transient(err) is transient
    assert is_malformed(err) is (not transient and status != 503)


def test_lost_connections_and_timeouts_are_transient() -> None:
    request = httpx.Request("POST", "http://127.0.0.1:1/")
    assert is_transient(openai.APITimeoutError(request=request))
    assert is_transient(openai.APIConnectionError(request=request))
    assert is_transient(TimeoutError()) and not is_transient(ValueError("bad JSON"))


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (
            500,
            LLAMA_CPP_PYTHON_500,
            "response_format.type: Input should be 'text' or 'json_object'",
        ),
        (
            500,
            {
                "error": {
                    "message": "2 validation errors for CreateChatCompletionRequest\n"
                    "response_format.type\n  Input should be 'text' [type=literal_error, "
                    "input_value='x', input_type=str]\n    For further information visit "
                    "https://errors.pydantic.dev/2/v/literal_error\ntop_k\n  Input should be "
                    "greater than or equal to 0 [type=greater_than_equal]"
                }
            },
            "response_format.type: Input should be 'text'; "
            "top_k: Input should be greater than or equal to 0",
        ),
        (
            422,
            {"detail": [{"loc": ["body", "response_format", "type"], "msg": "bad  value"}]},
            "response_format.type: bad value",
        ),
        (400, {"error": {"message": "  Unknown\r\n  field 'x'  "}}, "Unknown field 'x'"),
        (400, {"error": "plain string"}, "plain string"),
        (400, {"error": {"message": "x" * 400}}, "x" * 297 + "..."),
    ],
)
def test_complaint_is_the_servers_words_on_one_line(status: int, body: Any, expected: str) -> None:
    assert complaint(status_error(status, body)) == expected


def test_a_complaint_without_a_json_body_is_its_text() -> None:
    request = httpx.Request("POST", "http://127.0.0.1:1/v1/chat/completions")
    response = httpx.Response(400, text="Bad Request\n", request=request)
    client = openai.OpenAI(api_key="k", base_url="http://127.0.0.1:1/v1")
    assert complaint(client._make_status_error_from_response(response)) == "Bad Request"
