"""What one OpenAI-compatible endpoint is sent beyond autogen's request, and what comes
back of its errors: the JSON schema in the endpoint's spelling (see modes), and errors
made safe to store (API key scrubbed) and readable (a rejected request says why, once).
The endpoint's context window too (context_window.py): what the client reports, and a
request refused as too long for it is fit and sent once more."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Awaitable, Callable, Sequence

import openai
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage
from autogen_core.tools import Tool, ToolSchema

from macrs_sim.llm.base import CreateRequest, WrappingClient, approx_tokens
from macrs_sim.llm.context_window import Window, fit_messages, learn, refused_window, window_of
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
        model: str = "",
        n_ctx: int | None = None,
    ) -> None:
        super().__init__(inner)
        self.model = model
        self._n_ctx = n_ctx  # [model] n_ctx (or the server's model list, at preflight)
        self._key = key
        self._secrets = secrets  # more to scrub: a base URL's userinfo (redact.py)
        self.url = url
        self.mode = mode
        self._max_tokens = max_tokens
        self._resolve = resolve

    def window(self) -> Window:
        return window_of(self.url, self.model, self._n_ctx)

    def remaining_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []
    ) -> int:
        return max(0, self.window().tokens - approx_tokens(messages))

    async def _handle(self, request: CreateRequest) -> CreateResult:
        mode = await self._mode_for(request)
        try:
            return await self._send(request, mode)
        except openai.APIStatusError as err:
            fitted = self._fitted(request, err)
            if fitted is None:
                raise
        return await self._send(fitted, mode, refit=False)

    async def _send(
        self, request: CreateRequest, mode: Mode, *, refit: bool = True
    ) -> CreateResult:
        try:
            return await super()._handle(shape(request, mode, max_tokens=self._max_tokens))
        except openai.APIStatusError as err:
            refused = refused_window(complaint(err)) if err.status_code == 400 else None
            if refused is not None and not refit:
                explain_overflow(err, self.url, refused[0])
            elif refused is None and is_malformed(err):
                explain_rejection(err, self.url, mode if schema_of(request.json_output) else None)
            raise

    def _fitted(self, request: CreateRequest, err: openai.APIStatusError) -> CreateRequest | None:
        """`request` cut to the window a "maximum context length" refusal named (learned for
        every client of this endpoint), or None (another error, or no cut makes room)."""
        refused = refused_window(complaint(err)) if err.status_code == 400 else None
        if refused is None:
            return None
        window, prompt_tokens = refused
        learn(self.url, self.model, window, "the server's refusal: maximum context length")
        reply = request.extra_create_args.get("max_tokens", self._max_tokens)
        reply = reply if isinstance(reply, int) else self._max_tokens
        if prompt_tokens is None:  # it exceeded: the prompt took more than the reply left
            prompt_tokens = max(approx_tokens(request.messages), window - reply + 1)
        fitted = fit_messages(request.messages, window, reply, prompt_tokens)
        if fitted is None:
            explain_overflow(err, self.url, window)
            return None
        return dataclasses.replace(request, messages=fitted)

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


def explain_overflow(err: openai.APIStatusError, url: str, window: int) -> None:
    """Rewrite `err`'s message as one line: the request does not fit the served window."""
    line = (
        f"{url} refused the request: the prompt and the reply's max_tokens do not fit the"
        f" model's context of {window:,} tokens, even with the prompt cut (HTTP"
        f" {err.status_code}: {complaint(err)}); lower [model] max_tokens or serve a larger"
        " context"
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
