"""Retries for transient endpoint failures: timeouts, lost connections, 408/409/429 and 5xx."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from collections.abc import Awaitable, Callable
from email.utils import parsedate_to_datetime

import openai
from autogen_core.models import ChatCompletionClient, CreateResult

from macrs_sim.llm.base import WrappingClient
from macrs_sim.llm.rejection import RETRYABLE_4XX, is_malformed

# A server asking for a longer pause than this is treated as asking for this.
MAX_RETRY_AFTER_S = 60.0


def retry_after_s(err: openai.APIStatusError) -> float | None:
    """The pause a 429 (or 503) asks for: retry-after-ms, or retry-after in seconds or a date."""
    headers = err.response.headers
    try:
        if "retry-after-ms" in headers:
            return float(headers["retry-after-ms"]) / 1000
        if "retry-after" in headers:
            value = headers["retry-after"]
            try:
                return float(value)
            except ValueError:
                when = parsedate_to_datetime(value)
                return (when - dt.datetime.now(when.tzinfo or dt.UTC)).total_seconds()
    except (TypeError, ValueError):
        return None
    return None


def is_transient(err: BaseException) -> bool:
    """Worth sending again: a timeout, a lost connection, 408, 409, 429 or a 5xx, except a
    request the server rejected as malformed (see rejection.is_malformed)."""
    if isinstance(err, openai.APIStatusError):
        retryable = err.status_code >= 500 or err.status_code in RETRYABLE_4XX
        return retryable and not is_malformed(err)
    # APITimeoutError is a subclass of APIConnectionError.
    return isinstance(err, openai.APIConnectionError | TimeoutError | ConnectionError)


class RetryingClient(WrappingClient):
    """Retries transient failures with capped exponential backoff and seeded jitter.

    Wait after failed attempt n: the server's Retry-After when it gives one (capped at
    MAX_RETRY_AFTER_S), else min(max_s, base_s * 2**(n-1)) scaled by a seeded factor in
    [0.5, 1). What `is_transient` names is retried; a malformed request is not.
    The per-attempt timeout is the backend's own (OpenAIModel.timeout_s).
    """

    def __init__(
        self,
        inner: ChatCompletionClient,
        *,
        attempts: int = 3,
        base_s: float = 0.5,
        max_s: float = 30.0,
        seed: int = 0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        base_delay_s: float | None = None,
        max_delay_s: float | None = None,
    ) -> None:
        super().__init__(inner)
        self.attempts = max(1, attempts)
        # base_delay_s / max_delay_s: the earlier names, still accepted.
        self.base_s = base_s if base_delay_s is None else base_delay_s
        self.max_s = max_s if max_delay_s is None else max_delay_s
        self._rng = random.Random(seed)
        self._sleep = sleep  # injectable so tests can observe delays without waiting

    def delay_s(self, err: BaseException, attempt: int) -> float:
        """How long to wait after failed `attempt` (1-based)."""
        # 429s carry Retry-After; so do some proxies' 503s.
        if isinstance(err, openai.APIStatusError):
            asked = retry_after_s(err)
            if asked is not None:
                return min(max(asked, 0.0), MAX_RETRY_AFTER_S)
        backoff = min(self.max_s, self.base_s * 2.0 ** (attempt - 1))
        # Jitter spreads out retries of many concurrent dialogues hitting the same limit.
        return backoff * (0.5 + 0.5 * self._rng.random())

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        attempt = 1
        while True:
            try:
                return await call()
            except Exception as err:
                if attempt >= self.attempts or not is_transient(err):
                    raise
                await self._sleep(self.delay_s(err, attempt))
                attempt += 1
