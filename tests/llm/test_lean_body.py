"""The lean client's request bytes: orjson writes plain text messages, json the rest, and
the two together are byte for byte the SDK's body, hostile text and odd fields included."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest
from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.llm.lean.body import MessageEncoder, encode, encode_plain, encode_tail
from macrs_sim.llm.lean.reply import read_json
from tests.llm.lean_twins import RawServer, both, config

# Every escape json writes, line and paragraph separators, a BOM, DEL, C1, astral.
HOSTILE = 'q"uo\\te \x00\x01\x1f\x7f\x85 \b\f\n\r\t \u2028\u2029\ufeff é 中 😀 </script>'

HOSTILE_PROMPT: list[LLMMessage] = [
    SystemMessage(content=HOSTILE),
    UserMessage(content=HOSTILE[::-1], source="user"),
]


def test_orjson_writes_every_code_point_as_json_does() -> None:
    for code in range(0x110000):
        if 0xD800 <= code < 0xE000:
            continue  # lone surrogates: neither writes UTF-8 for them (see below)
        text = chr(code)
        assert orjson.dumps(text) == json.dumps(text, ensure_ascii=False).encode(), hex(code)


def test_a_plain_body_is_the_json_body() -> None:
    messages = [{"content": HOSTILE, "role": "system"}, {"role": "user", "content": "hi"}]
    tail = (("max_tokens", 64), ("stream", False), ("temperature", 1e-05))
    expected = encode({"messages": messages, "model": "m", **dict(tail)})
    assert b'"temperature":1e-05}' in expected  # json's spelling (orjson's is 1e-5)
    tail_json = encode_tail(tail)
    assert tail_json == b',"max_tokens":64,"stream":false,"temperature":1e-05'
    assert encode_plain(messages, "m", tail_json) == expected
    assert encode_plain(messages, "m", b"") == encode({"messages": messages, "model": "m"})


def test_a_tail_naming_a_head_field_is_left_to_json() -> None:
    assert encode_tail((("stream", False), ("model", "other"))) is None
    assert encode_tail(()) == b""


def test_system_and_user_text_take_the_plain_path() -> None:
    encoded, plain = MessageEncoder("m", "unknown").encode_checked(HOSTILE_PROMPT)
    assert plain and encoded[0] == {"content": HOSTILE, "role": "system"}


def test_a_lone_surrogate_is_left_to_json() -> None:
    assert encode_plain([{"role": "user", "content": "a\ud800b"}], "m", b"") is None


@pytest.fixture
async def srv() -> AsyncIterator[RawServer]:
    async with RawServer() as server:
        yield server


@pytest.mark.filterwarnings("ignore:Resolved model mismatch")  # the renamed model's echo
@pytest.mark.parametrize(
    "extra",
    [{}, {"top_p": 1e-07, "extra_body": {"model": "renamed", "top_k": 3}}],
    ids=["plain", "extra-body-renames-the-model"],
)
async def test_hostile_text_and_odd_fields_are_the_sdks_bytes(
    srv: RawServer, extra: dict[str, Any]
) -> None:
    clients = both(config(srv.base_url), temperature=1e-05)
    for client in clients.values():
        await client.create(HOSTILE_PROMPT, extra_create_args=extra)
        await client.close()
    lean_body, sdk_body = srv.raw
    assert lean_body == sdk_body
    assert HOSTILE[::-1].encode("utf-8") not in lean_body  # escaped, as json escapes it
    assert b'"temperature":1e-05' in lean_body


async def test_a_lone_surrogate_fails_alike(srv: RawServer) -> None:
    errors = []
    for client in both(config(srv.base_url)).values():
        with pytest.raises(ValueError) as info:  # UnicodeEncodeError
            await client.create([UserMessage(content="a\ud800b", source="user")])
        errors.append(type(info.value))
        await client.close()
    assert errors[0] is errors[1] and srv.raw == []


@pytest.mark.parametrize(
    "raw",
    [
        b'{"a": [1, -0.0, 0.1, 5e-324, 1.5e308, "\\u00e9\\ud83d\\ude00", null, true]}',
        b'{"a": "x", "a": "y", "usage": {"prompt_tokens": 18446744073709551615}}',
        b'{"a": NaN, "b": -Infinity}',  # json's extensions
        '{"a": "\u00e9"}'.encode("utf-16"),
        b'{"a": 1, "usage": {"prompt_tokens": 123456789012345678901234567890}}',  # > 64 bits
        b'{"a": 1, "usage": {"prompt_tokens": 7, "cost": 0.5}}',
    ],
    ids=["ordinary", "duplicate-key", "nan", "utf-16", "huge-usage", "float-in-usage"],
)
def test_replies_read_as_json_reads_them(raw: bytes) -> None:
    if not raw.startswith(b"\xff") and b"NaN" not in raw and b"usage" not in raw:
        orjson.loads(raw)  # this case is read by orjson itself, not the fallback
    assert repr(read_json(raw)) == repr(json.loads(raw))  # repr: nan != nan
    assert type(read_json(raw)["a"]) is type(json.loads(raw)["a"])


@pytest.mark.parametrize("raw", [b"", b"[1,2", b'{"a":"\xff"}', b"\xff\xfe"])
def test_unreadable_replies_fail_as_with_json(raw: bytes) -> None:
    with pytest.raises(ValueError) as ours:
        read_json(raw)
    with pytest.raises(ValueError) as theirs:
        json.loads(raw)
    assert type(ours.value) is type(theirs.value)
