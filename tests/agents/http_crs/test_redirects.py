"""Redirects: a dialogue is never posted off the configured origin (scheme, host, port).
Same-origin 307/308 are followed with the same body and credentials; nothing else is."""

from __future__ import annotations

import json

import pytest
from aiohttp import web

from macrs_sim.agents.http_crs.transport import HTTPSystemError, Poster
from macrs_sim.campaign.outage import is_outage
from tests.agents.http_crs.servers import serve

REPLY = {"act": "chat", "text": "hi"}
BODY = {"request": "respond", "dialogue": {"dialogue_id": "d1"}}


async def ok(request: web.Request) -> web.Response:
    return web.json_response(REPLY)


def poster(url: str) -> Poster:
    return Poster(url, timeout_s=5.0, max_reply_bytes=1 << 20)


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_a_redirect_to_another_port_is_not_followed_and_nothing_reaches_it(
    status: int,
) -> None:
    async with serve(ok) as other:

        async def moved(request: web.Request) -> web.Response:
            return web.Response(status=status, headers={"Location": f"{other.url}/steal"})

        async with serve(moved) as crs:
            p = poster(f"http://user:secret@127.0.0.1:{crs.port}/crs")
            with pytest.raises(HTTPSystemError) as caught:
                await p.post(BODY)
            await p.close()
    assert other.seen == []  # not posted to, not even asked with a GET
    assert len(crs.seen) == 1
    if status in (307, 308):
        expected = f"redirect to another origin (http://127.0.0.1:{other.port}) not followed"
    else:
        expected = "redirect not followed (only 307/308 are)"
    assert str(caught.value) == (f"http://***@127.0.0.1:{crs.port}/crs: HTTP {status} {expected}")
    assert not is_outage(caught.value)  # the dialogue's error: a rerun would do the same


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1.nip.io", "user:secret@127.0.0.2"])
async def test_another_host_name_on_the_same_port_is_another_origin(host: str) -> None:
    async def moved(request: web.Request) -> web.Response:
        port = request.url.port
        return web.Response(status=307, headers={"Location": f"http://{host}:{port}/x"})

    async with serve(moved) as crs:
        p = poster(f"{crs.url}/crs")
        with pytest.raises(HTTPSystemError, match="redirect to another origin") as caught:
            await p.post(BODY)
        await p.close()
    assert [s.path for s in crs.seen] == ["/crs"]
    assert "secret" not in str(caught.value)


async def test_a_same_origin_307_is_followed_with_the_same_body_and_credentials() -> None:
    async def slash(request: web.Request) -> web.Response:
        if request.path == "/crs":  # as FastAPI's trailing-slash redirect
            return web.Response(status=307, headers={"Location": "/crs/"})
        return web.json_response(REPLY)

    async with serve(slash) as crs:
        p = poster(f"http://us%40er:p%3Aw@127.0.0.1:{crs.port}/crs")
        assert await p.post(BODY) == REPLY
        await p.close()
    assert [(s.method, s.path) for s in crs.seen] == [("POST", "/crs"), ("POST", "/crs/")]
    # base64("us@er:p:w"): the userinfo, URL-decoded, on both requests.
    assert [s.authorization for s in crs.seen] == ["Basic dXNAZXI6cDp3"] * 2
    assert [json.loads(s.body) for s in crs.seen] == [BODY, BODY]


async def test_a_redirect_loop_on_the_same_origin_stops_after_five() -> None:
    async def loop(request: web.Request) -> web.Response:
        return web.Response(status=308, headers={"Location": request.path})

    async with serve(loop) as crs:
        p = poster(f"{crs.url}/crs")
        with pytest.raises(HTTPSystemError, match=r"/crs: more than 5 redirects$"):
            await p.post(BODY)
        await p.close()
    assert len(crs.seen) == 6  # the request and five redirects followed
