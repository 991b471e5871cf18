"""One request to a remote CRS, with the limits the `http` system promises.

* Redirects: a 307 or 308 to the configured origin (scheme, host and port) is followed,
  posting the same body again, at most MAX_REDIRECTS times (a framework's trailing-slash
  redirect, say). Any other 3xx, and every redirect to another origin, is not followed:
  the dialogue's error. So a dialogue is never posted anywhere but the configured origin
  (301/302/303 would turn the POST into a GET, which the protocol has no use for).
* Infrastructure errors (`HTTPSystemUnavailable`, a ConnectionError, which the campaign's
  `is_outage` takes as an outage, as it takes the LLM clients' connection errors): no
  connection (refused, reset), a connection attempt that timed out, a connection lost
  before the whole reply came (short of its Content-Length or last chunk), HTTP 5xx and
  429. The dialogue is left unfinished, the run `incomplete`, and the same command runs
  it again. Nothing is retried within the run.
* The dialogue's errors (`HTTPSystemError`): any other status, a redirect not followed
  (its Location not a URL included), a reply longer than `max_reply_bytes` (read in
  chunks and dropped once over: never held whole), a body that is not JSON (or nested
  past what the parser can follow), a body aiohttp cannot decode (a broken gzip or
  chunked encoding), a TLS or certificate failure, and `timeout_s` spent (from sending
  the first request to the last byte of the reply, redirects included): the system was
  too slow. A rerun would meet each of these again, so none is an outage.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
from aiohttp.http_exceptions import ContentLengthError, TransferEncodingError
from yarl import URL

from macrs_sim.redact import redact_url, split_userinfo

MAX_REDIRECTS = 5
CHUNK = 64 * 1024
_FOLLOWED = (307, 308)


class HTTPSystemError(RuntimeError):
    """The remote system failed this request (recorded as the dialogue's error)."""


class HTTPSystemUnavailable(HTTPSystemError, ConnectionError):  # noqa: N818 (as ConnectionError)
    """The remote system could not be reached or answered 5xx / 429: an outage."""


def _origin(url: URL) -> tuple[str, str, int | None]:
    return (url.scheme, (url.host or "").lower(), url.port)


def _is_outage(err: aiohttp.ClientError) -> bool:
    """Whether a rerun may get through: the connection failed or was lost mid-body. TLS
    and certificate errors, and a body aiohttp could not decode, would fail the same way."""
    if isinstance(err, aiohttp.ClientSSLError):
        return False
    if isinstance(err, aiohttp.ClientPayloadError):
        # aiohttp's message when the connection closed short of the announced length or
        # the last chunk; a decoding failure has a ContentEncodingError (or another) cause.
        lost = isinstance(err.__cause__, ContentLengthError | TransferEncodingError)
        return lost and str(err).startswith("Response payload is not completed")
    return isinstance(err, aiohttp.ClientConnectionError)


class Poster:
    """POSTs JSON to one URL (its userinfo sent as Basic auth) under the limits above."""

    def __init__(self, url: str, *, timeout_s: float, max_reply_bytes: int) -> None:
        bare, auth = split_userinfo(url)
        self._url = URL(bare)
        self._headers = {"Authorization": auth} if auth else {}
        self.where = redact_url(url)
        self._timeout_s = timeout_s
        self._cap = max_reply_bytes
        self._session: aiohttp.ClientSession | None = None

    async def post(self, body: dict[str, Any]) -> Any:
        """The reply's JSON; HTTPSystemError (or HTTPSystemUnavailable) if there is none."""
        if self._session is None:
            self._session = aiohttp.ClientSession(
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=self._timeout_s),
                cookie_jar=aiohttp.DummyCookieJar(),
            )
        data = json.dumps(body).encode()
        try:
            async with asyncio.timeout(self._timeout_s):
                raw = await self._exchange(self._session, data)
        except aiohttp.ConnectionTimeoutError:
            raise self._down("could not connect within the timeout") from None
        except TimeoutError:
            raise self._fail(f"no reply within {self._timeout_s} s") from None
        except aiohttp.ClientError as err:
            failed = self._down if _is_outage(err) else self._fail
            raise failed(f"{type(err).__name__}: {' '.join(str(err).split())}") from None
        try:
            return json.loads(raw)
        except ValueError as err:
            raise self._fail(f"reply is not JSON: {err}") from None
        except RecursionError:
            raise self._fail("reply is not JSON: nested too deeply to parse") from None

    async def _exchange(self, session: aiohttp.ClientSession, data: bytes) -> bytes:
        url = self._url
        headers = {**self._headers, "Content-Type": "application/json"}
        for _ in range(MAX_REDIRECTS + 1):
            async with session.post(url, data=data, headers=headers, allow_redirects=False) as resp:
                if resp.status in _FOLLOWED and "Location" in resp.headers:
                    url = self._same_origin(resp.status, url, resp.headers["Location"])
                    continue
                self._check_status(resp.status)
                return await self._read(resp)
        raise self._fail(f"more than {MAX_REDIRECTS} redirects")

    def _same_origin(self, status: int, base: URL, location: str) -> URL:
        try:
            target = base.join(URL(location)).with_user(None)
            origin = _origin(target)
        except ValueError as err:  # yarl: a bad IPv6 host, a port past 65535, ...
            raise self._fail(f"HTTP {status} redirect to an invalid Location ({err})") from None
        if origin != _origin(self._url):
            there = redact_url(str(target.origin()))
            raise self._fail(f"HTTP {status} redirect to another origin ({there}) not followed")
        return target

    def _check_status(self, status: int) -> None:
        if status >= 500 or status == 429:
            raise self._down(f"HTTP {status}")
        if status // 100 == 3:
            raise self._fail(f"HTTP {status} redirect not followed (only 307/308 are)")
        if status // 100 != 2:
            raise self._fail(f"HTTP {status}")

    async def _read(self, resp: aiohttp.ClientResponse) -> bytes:
        """The body, never more than the cap in memory (decompressed bytes count)."""
        over = self._fail(f"reply longer than max_reply_bytes = {self._cap}")
        if resp.content_length is not None and resp.content_length > self._cap:
            raise over
        buf = bytearray()
        async for chunk in resp.content.iter_chunked(CHUNK):
            buf += chunk
            if len(buf) > self._cap:
                raise over
        return bytes(buf)

    def _fail(self, what: str) -> HTTPSystemError:
        return HTTPSystemError(f"{self.where}: {what}")

    def _down(self, what: str) -> HTTPSystemUnavailable:
        return HTTPSystemUnavailable(f"{self.where}: {what}")

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
