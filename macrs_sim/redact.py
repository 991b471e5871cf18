"""Credentials never reach a screen or a file: `http://user:secret@host/v1` is shown and
stored as `http://***@host/v1` (the model config in memory keeps the real URL)."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from urllib.parse import unquote

MASK = "***"
# scheme:// (optional, for a URL written without one), then userinfo up to the netloc's
# last "@": a password may hold an unescaped "@", never "/", "?" or "#".
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)?[^/?#]*@")


def redact_url(url: str) -> str:
    """`url` with its user:password (if any) replaced by `***`; anything else unchanged."""
    return _USERINFO.sub(lambda m: f"{m.group(1) or ''}{MASK}@", url, count=1)


def userinfo(url: str) -> str | None:
    """The `user:password` part of `url`, if it has one."""
    found = _USERINFO.match(url)
    return found.group(0)[len(found.group(1) or "") : -1] if found else None


def redact_text(text: str, urls: Iterable[str | None]) -> str:
    """`text` (an error message, say) with the userinfo of each of `urls` masked wherever it
    appears, also where a library quoted the URL in pieces."""
    for url in urls:
        info = userinfo(url) if url else None
        if not info:
            continue
        text = text.replace(info, MASK)
        password = info.partition(":")[2]
        if len(password) >= 4:  # shorter ones would mask ordinary letters too
            text = text.replace(password, MASK)
    return text


def split_userinfo(url: str) -> tuple[str, str | None]:
    """`url` without its userinfo, and the `Authorization` value that userinfo stands for:
    `Basic base64(user:password)`, both parts URL-decoded first (RFC 7617); None without
    one. `http://us%40er:p%3Aw@host/v1` -> (`http://host/v1`, `Basic dXNAZXI6cDp3`)."""
    info = userinfo(url)
    if info is None:
        return url, None
    bare = _USERINFO.sub(lambda m: m.group(1) or "", url, count=1)
    user, _, password = info.partition(":")
    pair = f"{unquote(user)}:{unquote(password)}".encode()
    return bare, "Basic " + base64.b64encode(pair).decode("ascii")


def userinfo_secrets(url: str) -> tuple[str, ...]:
    """What of `url`'s userinfo must never be shown: the userinfo as written, its password
    (URL-decoded) and the Basic credentials it is sent as (a server may echo those)."""
    info = userinfo(url)
    auth = split_userinfo(url)[1]
    if info is None or auth is None:
        return ()
    return (info, unquote(info.partition(":")[2]), auth.removeprefix("Basic "))
