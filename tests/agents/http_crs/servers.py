"""Small aiohttp servers on 127.0.0.1 for the `http` system's tests: each records what it
was sent, so a test can say a server was never posted to."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Seen:
    method: str
    path: str
    authorization: str | None
    body: bytes


@dataclass
class Server:
    url: str  # http://127.0.0.1:PORT
    port: int
    seen: list[Seen] = field(default_factory=list)


@asynccontextmanager
async def serve(handler: Handler, *, port: int = 0) -> AsyncIterator[Server]:
    """`handler` on every method and path of http://127.0.0.1:`port` (0: any free port)."""
    server = Server("", 0)

    async def record(request: web.Request) -> web.StreamResponse:
        body = await request.read()
        auth = request.headers.get("Authorization")
        server.seen.append(Seen(request.method, request.path, auth, body))
        return await handler(request)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", record)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    server.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    server.url = f"http://127.0.0.1:{server.port}"
    try:
        yield server
    finally:
        await runner.cleanup()
