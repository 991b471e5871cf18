"""What one OpenAI-compatible endpoint is sent beyond autogen's request, and what comes
back of its errors: the JSON schema in the endpoint's spelling (see modes), and errors
made safe to store (API key scrubbed) and readable (a rejected request says why, once)."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import openai
from autogen_core.models import ChatCompletionClient, CreateResult

from macrs_sim.llm.base import CreateRequest, WrappingClient
from macrs_sim.llm.modes import AUTO_ORDER, SPELLING, Mode, schema_of, shape
from macrs_sim.llm.rejection import NOT_ABOUT_THE_BODY, complaint, is_malformed


class WireClient(WrappingClient):
    """One endpoint's spelling of `request`, and its errors made safe and readable.

    `mode` "auto" asks `resolve` (the endpoint's cached probe) at the first structured
    request; text requests need no answer (every auto candidate sends them alike).
    Always scrubs the API key from errors: some servers echo it in a 401, and an error's
    text lands in the run store and report.
    """

    def __init__(
        self,
        inner: ChatCompletionClient,
        *,
        key: str,
        url: str,
        mode: Mode | str,
        max_tokens: int,
        resolve: Callable[[], Awaitable[Mode]] | None = None,
        secrets: tuple[str, ...] = (),
    ) -> None:
        super().__init__(inner)
        self._key = key
        self._secrets = secrets  # more to scrub: a base URL's userinfo (redact.py)
        self.url = url
        self.mode = mode
        self._max_tokens = max_tokens
        self._resolve = resolve

    async def _handle(self, request: CreateRequest) -> CreateResult:
        mode = await self._mode_for(request)
        try:
            return await super()._handle(shape(request, mode, max_tokens=self._max_tokens))
        except openai.APIStatusError as err:
            if is_malformed(err):
                explain_rejection(err, self.url, mode if schema_of(request.json_output) else None)
            raise

    async def _mode_for(self, request: CreateRequest) -> Mode:
        if self.mode != "auto":
            return self.mode  # type: ignore[return-value]  # validated by the config
        if schema_of(request.json_output) is None or self._resolve is None:
            return "openai"
        return await self._resolve()

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        try:
            return await call()
        except Exception as err:
            for secret in (self._key, *self._secrets):
                scrub_secret(err, secret)
            raise


def explain_rejection(err: openai.APIStatusError, url: str, mode: Mode | None) -> None:
    """Rewrite `err`'s message (in place, keeping its type) as one line: who refused, the
    server's complaint, and for a structured request the `structured_outputs` to try."""
    status = f"HTTP {err.status_code}: {complaint(err)}"
    if err.status_code in NOT_ABOUT_THE_BODY:  # a key, a model name, a path: no mode helps
        line = f"{url} refused the request ({status})"
    elif mode is None or mode == "prompt":
        line = f"{url} rejected the request as malformed ({status})"
    else:
        others = [m for m in (*AUTO_ORDER, "auto") if m != mode]
        line = (
            f"{url} rejected the request as malformed ({status}); if it does not take "
            f"{SPELLING[mode]}, set [model] structured_outputs to "
            + " or ".join(f'"{m}"' for m in others)
        )
    err.message = line
    with contextlib.suppress(AttributeError, TypeError):
        err.args = (line,)


def scrub_secret(err: BaseException, secret: str) -> None:
    """Replace `secret` in the messages of `err` and its causes (in place)."""
    if secret == "EMPTY" or len(secret) < 4:  # the local placeholder is no secret
        return
    seen: BaseException | None = err
    for _ in range(8):  # a chain is short; the bound only guards against a cycle
        if seen is None:
            return
        # Some exception types refuse new args: keep the original error rather than fail.
        with contextlib.suppress(AttributeError, TypeError):
            seen.args = tuple(
                a.replace(secret, "[redacted]") if isinstance(a, str) else a for a in seen.args
            )
        if isinstance(seen, openai.APIError):
            seen.message = seen.message.replace(secret, "[redacted]")
            if secret in repr(seen.body):
                seen.body = None
        seen = seen.__cause__ or seen.__context__
