"""Requests a server rejects as malformed: never worth retrying, and said in one line.

A 4xx other than 408 (timeout), 409 (conflict) and 429 (rate limit) says the request is
wrong, and so does a 500 whose body is a validation error: llama-cpp-python's server
answers a `response_format` it does not know with HTTP 500 and pydantic's complaint.
"""

from __future__ import annotations

import re
from typing import Any

import openai

RETRYABLE_4XX = (408, 409, 429)
# Statuses that say "not you" (401, 403) or "not here" (404, 405) rather than "not this body":
# no other spelling of the request would be taken.
NOT_ABOUT_THE_BODY = (401, 403, 404, 405)
# How request validators word their complaints (pydantic, FastAPI, OpenAI-style errors).
VALIDATION = re.compile(
    r"validation error|Input should be|Field required|Extra inputs are not permitted"
    r"|invalid_request_error|unprocessable",
    re.IGNORECASE,
)
MAX_COMPLAINT_CHARS = 300


def is_malformed(err: BaseException) -> bool:
    """The server refused the request itself; sending it again cannot help."""
    if not isinstance(err, openai.APIStatusError):
        return False
    status = err.status_code
    if 400 <= status < 500:
        return status not in RETRYABLE_4XX
    return status == 500 and bool(VALIDATION.search(f"{err.message} {err.body!r}"))


def complaint(err: openai.APIStatusError) -> str:
    """The server's own words, on one line: its error message, or FastAPI's field errors."""
    body: Any = err.body  # the SDK keeps a JSON body's "error" member, or the body
    text = _from_body(body) if isinstance(body, dict) else body if isinstance(body, str) else ""
    if text:
        return _one_line(text)
    return _one_line(err.message.removeprefix(f"Error code: {err.status_code} - "))


def _from_body(body: dict[str, Any]) -> str:
    inner = body.get("error", body)
    if isinstance(inner, str):
        return inner
    if not isinstance(inner, dict):
        return ""
    message = inner.get("message") or inner.get("detail") or ""
    if isinstance(message, list):  # FastAPI's 422: [{"loc": [...], "msg": ...}, ...]
        return "; ".join(_field_error(e) for e in message if isinstance(e, dict))
    return str(message)


def _field_error(error: dict[str, Any]) -> str:
    loc = [str(p) for p in error.get("loc", ()) if p != "body"]
    return f"{'.'.join(loc) or '(request)'}: {error.get('msg', '')}"


def _one_line(text: str) -> str:
    text = fastapi_one_line(pydantic_one_line(text))
    text = " ".join(text.split())
    if len(text) > MAX_COMPLAINT_CHARS:
        text = text[: MAX_COMPLAINT_CHARS - 3] + "..."
    return text


# pydantic's str(ValidationError): a header line, then per error the field path on its own
# line and the message indented below it, ending in "[type=..., input_value=...]".
_PYDANTIC_ERROR = re.compile(r"^(\S[^\n]*)\n\s+([^\n]*?)(?:\s*\[type=[^\n]*)?$", re.MULTILINE)


def pydantic_one_line(text: str) -> str:
    """`1 validation error for X\\nresponse_format.type\\n  Input should be ... [type=...]`
    as `response_format.type: Input should be ...`; other text unchanged."""
    if not re.match(r"\d+ validation errors? for ", text):
        return text
    body = text.split("\n", 1)[1] if "\n" in text else ""
    found = [f"{loc}: {msg}" for loc, msg in _PYDANTIC_ERROR.findall(body)]
    return "; ".join(found) or text


# FastAPI's RequestValidationError as text (llama-cpp-python's 500): the errors' reprs,
# e.g. `1 validation error:\n  {'type': ..., 'loc': ('body', 'top_k'), 'msg': '...', ...}`.
_REPR_ERROR = re.compile(r"'loc': \(([^)]*)\), 'msg': (?:'([^']*)'|\"([^\"]*)\")")


def fastapi_one_line(text: str) -> str:
    """Each `{'loc': (...), 'msg': ...}` in `text` as `field.path: msg`; else `text`."""
    if not re.match(r"\d+ validation errors?:", text):
        return text
    found = []
    for loc, single, double in _REPR_ERROR.findall(text):
        path = [p.strip().strip("'\"") for p in loc.split(",")]
        found.append(f"{'.'.join(p for p in path if p and p != 'body')}: {single or double}")
    return "; ".join(found) or text
