"""One aiohttp session per endpoint client and event loop (a session is bound to the loop
it was made in; Ray actors or a second asyncio.run bring new loops)."""

from __future__ import annotations

import asyncio
import weakref

import aiohttp


class LoopSession:
    def __init__(self) -> None:
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._release: weakref.finalize[[aiohttp.ClientSession], LoopSession] | None = None

    def get(self) -> aiohttp.ClientSession:
        loop = asyncio.get_running_loop()
        if self._session is None or self._loop is not loop or self._session.closed:
            if self._release is not None:
                self._release()  # the previous loop's session
            self._session = aiohttp.ClientSession(
                # No limit here: the pool or ConcurrencyLimitedClient bounds calls in flight.
                connector=aiohttp.TCPConnector(limit=0),
                cookie_jar=aiohttp.DummyCookieJar(),
                # Not trust_env: it looks proxies up in a thread on every request.
                trust_env=False,
            )
            self._loop = loop
            self._release = weakref.finalize(self, _release, self._session)
        return self._session

    async def close(self) -> None:
        if self._release is not None:
            self._release.detach()
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None


def _release(session: aiohttp.ClientSession) -> None:
    """close() without the await, for a client dropped unclosed (common in tests)."""
    connector = session.connector
    if not session.closed:
        session.detach()
    if connector is not None:
        connector._close()  # the synchronous part of close(); nothing left to await
