"""What the openai SDK raises for a failed call, built the same way from aiohttp's answer:
the retry layer, the pool's cool-down and rejection.py read these classes and fields."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import httpx
import openai
from openai._models import construct_type
from openai.types.chat import ChatCompletion

# The SDK's mapping from HTTP status to error class (openai._client._make_status_error).
STATUS_ERRORS: dict[int, type[openai.APIStatusError]] = {
    400: openai.BadRequestError,
    401: openai.AuthenticationError,
    403: openai.PermissionDeniedError,
    404: openai.NotFoundError,
    409: openai.ConflictError,
    422: openai.UnprocessableEntityError,
    429: openai.RateLimitError,
}


def status_error(
    url: str, status: int, headers: Sequence[tuple[bytes, bytes]], raw: bytes
) -> openai.APIStatusError:
    """The error the SDK makes of a non-2xx reply: same class, message, body and response
    (status, headers and body, for Retry-After and the complaint)."""
    response = httpx.Response(status, headers=list(headers), content=raw, request=_request(url))
    err_text = response.text.strip()
    body: Any = err_text
    try:
        body = json.loads(err_text)
        message = f"Error code: {status} - {body}"
    except ValueError:
        message = err_text or f"Error code: {status}"
    data = body.get("error", body) if isinstance(body, dict) else body
    kind = STATUS_ERRORS.get(status)
    if kind is None:
        kind = openai.InternalServerError if status >= 500 else openai.APIStatusError
    return kind(message, response=response, body=data)


def timeout_error(url: str) -> openai.APITimeoutError:
    return openai.APITimeoutError(request=_request(url))


def connection_error(url: str) -> openai.APIConnectionError:
    return openai.APIConnectionError(request=_request(url))  # "Connection error.", as the SDK


def bad_reply(url: str, status: int, raw: bytes, why: str) -> openai.APIResponseValidationError:
    """A 2xx whose body is no chat completion (the SDK fails on it too, less clearly)."""
    response = httpx.Response(status, content=raw, request=_request(url))
    return openai.APIResponseValidationError(response, raw[:300], message=why)


def length_error(reply: dict[str, Any]) -> openai.LengthFinishReasonError:
    """The SDK's error for a truncated structured reply; its message names the usage."""
    completion = construct_type(value=reply, type_=ChatCompletion)
    return openai.LengthFinishReasonError(completion=completion)  # type: ignore[arg-type]


def _request(url: str) -> httpx.Request:
    return httpx.Request("POST", url)
