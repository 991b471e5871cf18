"""A fake OpenAI-compatible server on 127.0.0.1 for tests, benchmarks and manual runs.

Real HTTP, so the whole client stack (openai SDK, autogen, pool, retries) is exercised.
It keeps every request for tests to read back (`record=True`, the default; off from the
command line, where nothing reads them), answers JSON-schema requests with a valid
instance (synthesized from the schema), and can be scripted to fail: statuses with
Retry-After, dropped connections, replies slower than the client's timeout, or a whole
endpoint down.

    async with FakeOpenAIServer(latency_s=0.05, endpoints=2) as srv: srv.base_urls
    with FakeOpenAIServer().run_in_thread() as srv: ...     # for subprocess / CLI tests
    python -m macrs_sim.llm.fake_openai_server --port 8001 --latency 0.05
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import socket
import threading
import time
from collections import deque
from typing import Any, Self

from aiohttp import web

from macrs_sim.llm.fake_openai_replies import (
    DROP,
    TEXT,
    Fault,
    Recorded,
    completion,
    error_reply,
    overflow,
    rejects_format,
)

__all__ = ["DROP", "FakeOpenAIServer", "Fault", "Recorded", "main"]


class FakeOpenAIServer:
    def __init__(
        self,
        *,
        latency_s: float = 0.0,
        endpoints: int = 1,
        port: int = 0,
        model: str = "fake",
        response_formats: frozenset[str] | None = None,
        record: bool = True,
        context_tokens: int | None = None,
        list_window: bool = False,
    ) -> None:
        self.latency_s = latency_s
        # Keep every request (tests read them); off for a long-running server, which
        # would otherwise grow by every body it is sent (gigabytes over a benchmark).
        self.record = record
        self.model = model
        # The `response_format` types taken (None: all); others get llama-cpp-python's 500.
        # E.g. frozenset({"text", "json_object"}) is llama-cpp-python's server.
        self.response_formats = response_formats
        self.text = TEXT
        # The served window: a longer prompt plus max_tokens gets the real servers' HTTP 400;
        # `list_window` says it in /v1/models as vLLM does (max_model_len).
        self.context_tokens = context_tokens
        self.list_window = list_window
        self.requests: list[Recorded] = []
        self.faults: deque[Fault] = deque()  # deque: appended from other threads safely
        self.outages: dict[int, Fault] = {}  # port -> fault for every chat request
        self.scheduled: dict[int, Fault] = {}  # n-th chat request -> fault
        self.chat_count = 0
        self.span_s = [0.0, 0.0]  # wall clock of the first chat request and the last reply
        self.in_flight: dict[int, int] = {}
        self.max_in_flight: dict[int, int] = {}
        self._want = [port + i if port else 0 for i in range(endpoints)]
        self.ports: list[int] = []
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def base_urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p}/v1" for p in self.ports]

    @property
    def base_url(self) -> str:
        return self.base_urls[0]

    def fail(
        self, status: int = 500, *, times: int = 1, retry_after: str | None = None, at: int = 0
    ) -> None:
        """`times` chat requests (any endpoint) get HTTP `status`: the next ones, or from the
        `at`-th chat request on (1-based), e.g. to spare a campaign's set-up calls."""
        fault = Fault("status", status, retry_after)
        if at:
            self.scheduled.update({n: fault for n in range(at, at + times)})
        else:
            self.faults.extend([fault] * times)

    def drop(self, *, times: int = 1) -> None:
        self.faults.extend([Fault("drop")] * times)

    def hang(self, seconds: float, *, times: int = 1) -> None:
        self.faults.extend([Fault("hang", delay_s=seconds)] * times)

    def set_down(self, index: int, fault: Fault | None = DROP) -> None:
        """Endpoint `index` fails every chat request with `fault` (None: it is back)."""
        if fault is None:
            self.outages.pop(self.ports[index], None)
        else:
            self.outages[self.ports[index]] = fault

    def chat_bodies(self, port: int | None = None) -> list[dict[str, Any]]:
        if not self.record:
            raise RuntimeError("FakeOpenAIServer(record=False) keeps no request bodies")
        return [
            r.body
            for r in self.requests
            if r.path.endswith("/chat/completions") and port in (None, r.port)
        ]

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/health", self._health)
        app.router.add_get("/stats", self._stats)
        app.router.add_post("/v1/chat/completions", self._chat)
        # A short shutdown: a hanging request must not hold a test for aiohttp's default 60 s.
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.2)
        await self._runner.setup()
        for want in self._want:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", want))
            self.ports.append(sock.getsockname()[1])
            await web.SockSite(self._runner, sock, backlog=1024).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def run_in_thread(self) -> Self:
        """Serve from a daemon thread with its own event loop; `stop_thread()` ends it."""
        loop = asyncio.new_event_loop()
        ready = asyncio.run_coroutine_threadsafe(self.start(), loop)
        self._loop, self._thread = loop, threading.Thread(target=loop.run_forever, daemon=True)
        self._thread.start()
        ready.result(timeout=10)
        return self

    def stop_thread(self) -> None:
        if self._loop is None or self._thread is None:
            return
        asyncio.run_coroutine_threadsafe(self.stop(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()
        self._loop = self._thread = None

    def __enter__(self) -> Self:
        return self if self._thread else self.run_in_thread()

    def __exit__(self, *exc: object) -> None:
        self.stop_thread()

    def _record(self, request: web.Request, body: Any) -> int:
        port = request.url.port or 0
        if not self.record:
            return port
        headers = {k.lower(): v for k, v in request.headers.items()}
        self.requests.append(Recorded(request.method, request.path, port, headers, body))
        return port

    async def _models(self, request: web.Request) -> web.Response:
        self._record(request, None)
        card: dict[str, Any] = {"id": self.model, "object": "model", "created": 0}
        card["owned_by"] = "fake"
        if self.list_window and self.context_tokens is not None:
            card["max_model_len"] = self.context_tokens
        return web.json_response({"object": "list", "data": [card]})

    async def _health(self, request: web.Request) -> web.Response:
        self._record(request, None)
        return web.Response(text="ok")

    async def _stats(self, request: web.Request) -> web.Response:
        """Counters for a benchmark driving this server from another process."""
        busiest = {str(port): n for port, n in self.max_in_flight.items()}
        stats = {"chat_requests": self.chat_count, "span_s": self.span_s, "max_in_flight": busiest}
        return web.json_response(stats)

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        self.span_s[0] = self.span_s[0] or time.time()
        body = await request.json()
        port = self._record(request, body)
        self.in_flight[port] = busy = self.in_flight.get(port, 0) + 1
        self.max_in_flight[port] = max(busy, self.max_in_flight.get(port, 0))
        try:
            self.chat_count += 1
            fault = self.outages.get(port) or self.scheduled.pop(self.chat_count, None)
            if fault is None and self.faults:
                fault = self.faults.popleft()
            await asyncio.sleep(self.latency_s + (fault.delay_s if fault else 0.0))
            rejected = rejects_format(body, self.response_formats)
            if rejected is None:
                rejected = overflow(body, self.context_tokens)
            if rejected is not None:
                return rejected
            if fault is None or fault.kind == "hang":
                return web.json_response(completion(body, self.text))
            if fault.kind == "drop":
                if request.transport is not None:
                    request.transport.abort()  # reset: the client sees a lost connection
                raise asyncio.CancelledError  # nothing left to answer on
            return error_reply(fault, request.headers.get("Authorization", ""))
        finally:
            self.in_flight[port] -= 1
            self.span_s[1] = time.time()


async def _serve(args: argparse.Namespace) -> None:
    async with FakeOpenAIServer(
        latency_s=args.latency, endpoints=args.endpoints, port=args.port, record=False
    ) as srv:
        print(json.dumps({"base_urls": srv.base_urls}), flush=True)
        await asyncio.Event().wait()  # until interrupted


def main() -> None:
    ap = argparse.ArgumentParser(description="fake OpenAI-compatible server on 127.0.0.1")
    ap.add_argument("--port", type=int, default=0, help="first port (0: random free ports)")
    ap.add_argument("--endpoints", type=int, default=1, help="how many ports to listen on")
    ap.add_argument("--latency", type=float, default=0.0, help="seconds per chat request")
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is the way to stop it
        asyncio.run(_serve(ap.parse_args()))


if __name__ == "__main__":
    main()
