"""Which failures of a remote CRS are outages (5xx, 429, no connection: the dialogue is
left for the same command to redo) and which are the dialogue's error (other statuses, a
reply that is not JSON, too long or too slow); replies are capped without holding them."""

from __future__ import annotations

import asyncio
import gzip
import socket
import tracemalloc

import pytest
from aiohttp import web

from macrs_sim.agents.http_crs.transport import HTTPSystemError, HTTPSystemUnavailable, Poster
from macrs_sim.campaign.outage import is_outage
from tests.agents.http_crs.servers import serve

MIB = 1 << 20
BODY = {"request": "respond"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def post(url: str, *, cap: int = MIB, timeout_s: float = 5.0) -> object:
    p = Poster(url, timeout_s=timeout_s, max_reply_bytes=cap)
    try:
        return await p.post(BODY)
    finally:
        await p.close()


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
async def test_5xx_and_429_are_outages(status: int) -> None:
    async def busy(request: web.Request) -> web.Response:
        return web.Response(status=status, text="x" * (4 * MIB))  # never read

    async with serve(busy) as crs:
        with pytest.raises(HTTPSystemUnavailable) as caught:
            await post(f"{crs.url}/crs")
    assert str(caught.value) == f"{crs.url}/crs: HTTP {status}"
    assert is_outage(caught.value)


async def test_connection_refused_is_an_outage() -> None:
    url = f"http://u:secret@127.0.0.1:{free_port()}/crs"
    with pytest.raises(HTTPSystemUnavailable) as caught:
        await post(url)
    assert is_outage(caught.value)
    assert str(caught.value).startswith(f"{url.replace('u:secret', '***')}: ")
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (web.Response(status=404), "HTTP 404"),
        (web.Response(status=400, text="no"), "HTTP 400"),
        (web.Response(status=422), "HTTP 422"),
        (web.Response(status=200, text="{not json"), "reply is not JSON: "),
    ],
    ids=["404", "400", "422", "not-json"],
)
async def test_other_failures_are_the_dialogues_error(reply: web.Response, expected: str) -> None:
    async def answer(request: web.Request) -> web.Response:
        return reply

    async with serve(answer) as crs:
        with pytest.raises(HTTPSystemError) as caught:
            await post(f"{crs.url}/crs")
    assert str(caught.value).startswith(f"{crs.url}/crs: {expected}")
    assert not isinstance(caught.value, HTTPSystemUnavailable)
    assert not is_outage(caught.value)


def padded(size: int) -> bytes:
    """A JSON reply of exactly `size` bytes."""
    head, tail = b'{"act": "chat", "text": "', b'"}'
    return head + b"x" * (size - len(head) - len(tail)) + tail


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
async def test_a_reply_of_the_cap_is_read_and_one_byte_more_is_refused(declared: bool) -> None:
    async def sized(request: web.Request) -> web.StreamResponse:
        size = int(request.query["size"])
        if declared:
            return web.Response(body=padded(size), content_type="application/json")
        resp = web.StreamResponse()
        await resp.prepare(request)
        await resp.write(padded(size))
        await resp.write_eof()
        return resp

    async with serve(sized) as crs:
        reply = await post(f"{crs.url}/crs?size=1000", cap=1000)
        assert reply == {"act": "chat", "text": "x" * (1000 - 27)}
        with pytest.raises(HTTPSystemError) as caught:
            await post(f"{crs.url}/crs?size=1001", cap=1000)
    assert str(caught.value) == f"{crs.url}/crs?size=1001: reply longer than max_reply_bytes = 1000"
    assert not is_outage(caught.value)


async def test_an_endless_reply_is_cut_at_the_cap_in_bounded_memory() -> None:
    sent = [0]
    chunk = b"x" * (64 * 1024)

    async def endless(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse()
        await resp.prepare(request)
        await resp.write(b'{"act": "chat", "text": "')
        while sent[0] < 300 * MIB:  # 300 MB if anyone read it all
            await resp.write(chunk)
            sent[0] += len(chunk)
        return resp

    async with serve(endless) as crs:
        tracemalloc.start()
        try:
            with pytest.raises(
                HTTPSystemError, match="reply longer than max_reply_bytes = 1048576"
            ):
                await post(f"{crs.url}/crs", timeout_s=30.0)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak < 6 * MIB  # the 1 MiB kept, a copy as bytes, the chunks in flight
    assert sent[0] < 64 * MIB  # the client hung up long before the end


async def test_the_cap_counts_decompressed_bytes() -> None:
    bomb = gzip.compress(padded(8 * MIB))  # about 8 KiB on the wire

    async def zipped(request: web.Request) -> web.Response:
        return web.Response(
            body=bomb, headers={"Content-Encoding": "gzip", "Content-Type": "application/json"}
        )

    async with serve(zipped) as crs:
        assert len(bomb) < 64 * 1024
        with pytest.raises(HTTPSystemError, match="reply longer than max_reply_bytes = 1048576"):
            await post(f"{crs.url}/crs")


async def test_a_reply_trickling_past_the_timeout_is_the_dialogues_error() -> None:
    async def trickle(request: web.Request) -> web.StreamResponse:
        resp = web.StreamResponse()
        await resp.prepare(request)
        for _ in range(100):  # a byte every 50 ms: each read is quick, the whole is not
            await resp.write(b" ")
            await asyncio.sleep(0.05)
        return resp

    async with serve(trickle) as crs:
        with pytest.raises(HTTPSystemError) as caught:
            await post(f"{crs.url}/crs", timeout_s=0.5)
    assert str(caught.value) == f"{crs.url}/crs: no reply within 0.5 s"
    assert not is_outage(caught.value)
