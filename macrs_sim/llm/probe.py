"""`structured_outputs = "auto"`: ask the server once which JSON-schema spelling it takes.

One tiny structured request per mode, in `modes.AUTO_ORDER`, until the server accepts one
(HTTP 200, whatever the reply says: its quality is `complete_json`'s business). "prompt"
is tried too, so a server refusing even a plain request fails here in one line instead
of in every dialogue. Results are kept per (endpoint, model) for the process: preflight
(`models check`, campaign start) probes, and clients built later reuse the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

import openai
from autogen_core.models import ChatCompletionClient, LLMMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.modes import AUTO_ORDER, SPELLING, Mode
from macrs_sim.llm.rejection import NOT_ABOUT_THE_BODY, complaint, is_malformed
from macrs_sim.redact import redact_url

# Enough for `{"ok": true}` in any tokenizer; the probe's reply is not read.
PROBE_MAX_TOKENS = 16
PROBE_MESSAGES: list[LLMMessage] = [
    UserMessage(content='Reply with the JSON object {"ok": true}.', source="probe")
]

# What the SDK raises when an HTTP 200 body is not a chat completion (it reads it unchecked).
NOT_A_COMPLETION = (openai.APIResponseValidationError, AttributeError, TypeError, KeyError)

# (base URL, model) -> what the probe found; filled by `endpoint_probe`.
_FOUND: dict[tuple[str, str], Probe] = {}
_RUNNING: dict[tuple[str, str], asyncio.Task[Probe]] = {}

# A client for one endpoint that sends structured requests in `mode`.
BuildClient = Callable[[Mode], ChatCompletionClient]


class ProbeUnavailableError(ConnectionError):
    """The server could not answer the probe just now (a 5xx, a 429, a lost connection).

    A ConnectionError on purpose: at campaign start the mode is then left to the first
    structured call, and there the retry layer and the circuit breaker treat it as the
    passing outage it is, instead of the campaign refusing to start."""


# Statuses that say the server is busy or down, not that the request is wrong.
_BUSY = {408, 409, 429}


class ProbeReply(BaseModel):
    ok: bool


@dataclass(frozen=True)
class Probe:
    url: str
    mode: Mode
    rejected: tuple[tuple[Mode, str], ...] = ()  # the modes refused first, with the reason

    def describe(self) -> str:
        """E.g. `json_object (the server rejected response_format json_schema: HTTP 500 ...)`."""
        if not self.rejected:
            return f'"{self.mode}" (accepted as first tried)'
        refused = "; ".join(f"{SPELLING[m]}: {why}" for m, why in self.rejected)
        return f'"{self.mode}" (the server rejected {refused})'


def forget_probes() -> None:
    """Forget every result (tests; a server restarted with other flags)."""
    _FOUND.clear()
    _RUNNING.clear()


def known_mode(url: str, model: str) -> Mode | None:
    found = _FOUND.get((url.rstrip("/"), model))
    return found.mode if found else None


async def endpoint_probe(url: str, model: str, build: BuildClient) -> Probe:
    """The cached probe of `url` for `model`, probing once (concurrent callers share it)."""
    key = (url.rstrip("/"), model)
    if key in _FOUND:
        return _FOUND[key]
    task = _RUNNING.get(key)
    if task is None or task.get_loop() is not asyncio.get_running_loop():
        task = _RUNNING[key] = asyncio.create_task(probe(key[0], build))
    try:
        found = await asyncio.shield(task)
    finally:
        if task.done() and _RUNNING.get(key) is task:
            del _RUNNING[key]
    _FOUND[key] = found
    return found


async def probe(url: str, build: BuildClient) -> Probe:
    """The first mode of AUTO_ORDER that `url` accepts; ModelUnavailableError if none."""
    rejected: list[tuple[Mode, str]] = []
    for mode in AUTO_ORDER:
        client = build(mode)
        try:
            await client.create(PROBE_MESSAGES, json_output=ProbeReply)
        except openai.APIStatusError as err:
            busy = err.status_code in _BUSY or err.status_code >= 500
            if busy and not is_malformed(err):
                raise ProbeUnavailableError(f"{redact_url(url)}: {_failed(err)}") from None
            if not is_malformed(err) or err.status_code in NOT_ABOUT_THE_BODY:
                raise ModelUnavailableError(f"{redact_url(url)}: {_failed(err)}") from None
            rejected.append((mode, f"HTTP {err.status_code} {complaint(err)}"))
            continue
        except (openai.APIConnectionError, TimeoutError, ConnectionError) as err:
            raise ProbeUnavailableError(f"{redact_url(url)}: {_failed(err)}") from None
        except (ValueError, openai.LengthFinishReasonError):
            pass  # the server took the request; the reply is not what the probe is about
        except NOT_A_COMPLETION as err:  # a 200 with some other body: a proxy's page, ...
            raise ModelUnavailableError(f"{redact_url(url)}: {_failed(err)}") from None
        finally:
            await client.close()
        return Probe(url, mode, tuple(rejected))
    raise ModelUnavailableError(
        f"{redact_url(url)}: the server rejected every way of asking for JSON, even a plain "
        f"request: {rejected[-1][1]}"
    )


def _failed(err: BaseException) -> str:
    if isinstance(err, openai.APIStatusError):
        what = f"HTTP {err.status_code} {complaint(err)}"
    elif isinstance(err, NOT_A_COMPLETION):
        reason = (str(err).splitlines() or [""])[0]
        what = f"its reply is not an OpenAI chat completion: {type(err).__name__}: {reason}"
    else:
        what = (str(err).splitlines() or [type(err).__name__])[0]
    return f"probing which structured outputs the server accepts failed ({what})"
