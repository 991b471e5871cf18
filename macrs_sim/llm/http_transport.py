"""An httpx transport over aiohttp, for the openai SDK's HTTP client.

Why: httpcore's connection pool rescans every connection (with a `poll` syscall each)
for every queued request, so its cost per call grows with the number in flight; at
32-64 concurrent calls it capped the whole stack below 110 calls/s on two cores, where
aiohttp sustains 250-450. The SDK still builds requests, maps errors and parses replies:
only the wire moves. Bodies are read whole (nothing here streams tokens).
"""

from __future__ import annotations

import asyncio
import functools
import urllib.request
import weakref

import aiohttp
import httpx


class LoopSession:
    """One aiohttp session per event loop, created on first use: a session is bound to the
    loop it was made in, and Ray actors or a second asyncio.run bring new loops."""

    def __init__(self, *, auto_decompress: bool = True) -> None:
        self._auto_decompress = auto_decompress
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
                auto_decompress=self._auto_decompress,
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


class AiohttpTransport(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        # httpx decodes Content-Encoding itself from the raw bytes we hand it.
        self._session = LoopSession(auto_decompress=False)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        limits = request.extensions.get("timeout", {})
        timeout = aiohttp.ClientTimeout(
            total=None, sock_connect=limits.get("connect"), sock_read=limits.get("read")
        )
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in request.headers.raw]
        try:
            async with self._session.get().request(
                request.method,
                str(request.url),
                headers=headers,
                data=await request.aread(),
                timeout=timeout,
                allow_redirects=False,
                proxy=_proxy_for(request.url.scheme, request.url.host),
            ) as response:
                body = await response.read()
                raw_headers = [(k, v) for k, v in response.raw_headers]
                status = response.status
        # Mapped to httpx's errors, which the SDK turns into APITimeoutError /
        # APIConnectionError for the retry layer and the pool.
        except TimeoutError as err:
            raise httpx.ReadTimeout(str(err) or "timed out", request=request) from err
        except aiohttp.ClientConnectorError as err:
            raise httpx.ConnectError(str(err), request=request) from err
        except aiohttp.ClientError as err:
            message = str(err) or type(err).__name__  # e.g. ServerDisconnectedError
            raise httpx.RemoteProtocolError(message, request=request) from err
        return httpx.Response(status, headers=raw_headers, content=body, request=request)

    async def aclose(self) -> None:
        await self._session.close()


@functools.lru_cache(maxsize=64)
def _proxy_for(scheme: str, host: str) -> str | None:
    """HTTP(S)_PROXY unless NO_PROXY covers `host`, as httpx honours them; once per host."""
    if urllib.request.proxy_bypass(host):
        return None
    return urllib.request.getproxies_environment().get(scheme)


def _release(session: aiohttp.ClientSession) -> None:
    """aclose() without the await, for a client dropped unclosed (common in tests): the
    sockets close either way, this just spares a "Unclosed client session" warning."""
    connector = session.connector
    if not session.closed:
        session.detach()
    if connector is not None:
        connector._close()  # the synchronous part of close(); nothing left to await
