"""Failures a rerun would meet again are the dialogue's error, never an outage: a broken
content encoding, TLS and certificate failures, a redirect whose Location is not a URL, a
reply nested too deeply to parse. A connection lost mid-body stays an outage."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from aiohttp import web

from macrs_sim.agents.http_crs.transport import HTTPSystemError, HTTPSystemUnavailable
from macrs_sim.campaign.outage import is_outage
from macrs_sim.store import RunStore
from tests.agents.http_crs.servers import serve
from tests.agents.http_crs.test_campaign import run, scenario
from tests.agents.http_crs.test_limits import post

CERT = Path(__file__).with_name("selfsigned.pem")  # self-signed for 127.0.0.1, test only


async def empty(request: web.Request) -> web.Response:
    return web.json_response({})


async def dialogue_error(url: str) -> str:
    """The message of the HTTPSystemError `url` ends in; it must not be an outage."""
    with pytest.raises(HTTPSystemError) as caught:
        await post(url)
    assert not isinstance(caught.value, HTTPSystemUnavailable)
    assert not is_outage(caught.value)
    return str(caught.value)


async def test_a_body_that_is_not_gzip_as_it_says_is_the_dialogues_error() -> None:
    async def broken(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse(headers={"Content-Encoding": "gzip"})
        await resp.prepare(request)  # the headers first, so the client is reading the body
        await asyncio.sleep(0.05)
        await resp.write(b'{"act": "chat"}')  # not compressed
        await resp.write_eof()
        return resp

    async with serve(broken) as crs:
        message = await dialogue_error(f"{crs.url}/crs")
    assert message == (
        f"{crs.url}/crs: ClientPayloadError: 400, message: Can not decode content-encoding: gzip"
    )


async def test_tls_to_a_server_that_speaks_plain_http_is_the_dialogues_error() -> None:
    async with serve(empty) as crs:
        message = await dialogue_error(f"https://127.0.0.1:{crs.port}/crs")
    assert message.startswith(f"https://127.0.0.1:{crs.port}/crs: ClientConnectorSSLError: ")
    assert "WRONG_VERSION_NUMBER" in message


async def test_a_certificate_no_authority_signed_is_the_dialogues_error() -> None:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(CERT)
    app = web.Application()
    app.router.add_post("/crs", empty)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        message = await dialogue_error(f"https://127.0.0.1:{port}/crs")
    finally:
        await runner.cleanup()
    assert message.startswith(f"https://127.0.0.1:{port}/crs: ClientConnectorCertificateError: ")
    assert "self-signed certificate" in message


@asynccontextmanager
async def raw(reply: bytes, *, reset: bool) -> AsyncIterator[str]:
    """A server that answers `reply` byte for byte, then closes (or resets) the connection."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(reply)
        await writer.drain()
        if reset:
            writer.transport.abort()
        else:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/crs"
    finally:
        server.close()


@pytest.mark.parametrize("reset", [False, True], ids=["closed", "reset"])
@pytest.mark.parametrize(
    ("reply", "short_of"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"act\":", "ContentLengthError"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\n{\"act\"\r\n",
         "TransferEncodingError"),
    ],
    ids=["content-length", "chunked"],
)  # fmt: skip
async def test_a_connection_lost_mid_body_stays_an_outage(
    reply: bytes, short_of: str, reset: bool
) -> None:
    async with raw(reply, reset=reset) as url:
        with pytest.raises(HTTPSystemUnavailable) as caught:
            await post(url)
    assert is_outage(caught.value)
    assert str(caught.value).startswith(
        f"{url}: ClientPayloadError: Response payload is not completed: <{short_of}: "
    )


@pytest.mark.parametrize(
    ("location", "why"),
    [
        ("http://[::1", "Invalid IPv6 URL"),
        ("http://user:secret@127.0.0.1:99999/crs/", "Port out of range 0-65535"),
        ("//[::1/crs/", "Invalid IPv6 URL"),
    ],
)
@pytest.mark.parametrize("status", [307, 308])
async def test_a_redirect_whose_location_is_not_a_url_is_the_dialogues_error(
    status: int, location: str, why: str
) -> None:
    async def moved(request: web.Request) -> web.Response:
        return web.Response(status=status, headers={"Location": location})

    async with serve(moved) as crs:
        message = await dialogue_error(f"{crs.url}/crs")
    assert message == f"{crs.url}/crs: HTTP {status} redirect to an invalid Location ({why})"
    assert len(crs.seen) == 1


async def test_a_reply_nested_too_deeply_is_the_dialogues_error() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000  # 200 KB, under the 1 MiB cap

    async def nested(request: web.Request) -> web.Response:
        return web.Response(body=deep, content_type="application/json")

    async with serve(nested) as crs:
        message = await dialogue_error(f"{crs.url}/crs")
    assert message == f"{crs.url}/crs: reply is not JSON: nested too deeply to parse"


async def test_in_a_campaign_they_cost_their_dialogue_and_the_run_finishes(
    tmp_path: Path,
) -> None:
    async def broken(request: web.Request) -> web.Response:
        if request.path == "/crs":
            return web.Response(status=307, headers={"Location": "http://[::1"})
        return web.Response(body=b"{}", headers={"Content-Encoding": "gzip"})

    async with serve(broken) as remote:
        bad_location = await run(scenario(f"{remote.url}/crs"), tmp_path / "a")
        bad_gzip = await run(scenario(f"{remote.url}/gz"), tmp_path / "b")
    for result, error in [
        (bad_location, f"{remote.url}/crs: HTTP 307 redirect to an invalid Location "
                       "(Invalid IPv6 URL)"),
        (bad_gzip, f"{remote.url}/gz: ClientPayloadError: 400, message: "
                   "Can not decode content-encoding: gzip"),
    ]:  # fmt: skip
        assert (result.status, result.stored, result.unfinished) == ("finished", 4, 0)
        with RunStore.open(result.store_path) as store:
            assert [r.error for r in store.read_results()] == [f"HTTPSystemError: {error}"] * 4
