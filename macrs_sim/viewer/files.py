"""Files of a viewer site: data as JavaScript, the page from its template, static assets.

Data files are JavaScript that hands a JSON literal to a function (`MV.chunkLoaded(3, {...})`)
because browsers refuse `fetch()` of a JSON file opened from disk (file://); a <script> tag
may load one. JSON is valid JavaScript, and as an external file it needs no HTML escaping;
still, every `</` in it is written `<\\/` (the same string in JSON), so no model text such as
"</script>" could end a <script> element should the data ever be put inline in a page.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import pydantic_core

from macrs_sim.textsafe import page_text

CHUNK_DIR = "data/chunks"
Span = tuple[int, int]  # (offset, length) of a value in a file


def chunk_name(index: int) -> str:
    return f"c{index:05d}.js"


def to_json(value: Any) -> bytes:
    """Compact UTF-8 JSON (pydantic-core's encoder: several times faster than `json` on a
    large run); NaN and infinities become null, as JSON has no spelling for them."""
    return pydantic_core.to_json(value, inf_nan_mode="null")


def js_safe(data: bytes) -> bytes:
    """JSON with every `</` written `<\\/` (the same string)."""
    return data.replace(b"</", b"<\\/")


def write_js_call(path: Path, call: str, *args: Any) -> None:
    """`call(arg, ...);` with each argument as a JSON literal, in UTF-8."""
    write_js_parts(path, call, [b", ".join(to_json(a) for a in args)])


def write_js_parts(path: Path, call: str, parts: Iterable[bytes]) -> None:
    """`call(...);` whose arguments are the JSON `parts` joined; each part is made safe on
    its own, as no `</` spans two parts of JSON cut between a value and its punctuation."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        file.write(f"{call}(".encode())
        for part in parts:
            file.write(js_safe(part))
        file.write(b");\n")


class Pieces:
    """A file written piece by piece; `item` writes a value of the list being written.

    Made safe for a data script piece by piece (js_safe), which is the same as the
    whole: a `</` never spans two pieces, each whole JSON values and punctuation."""

    def __init__(self, path: Path, escape: bool) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = path.open("w+b")
        self._escape, self._pos, self._first = escape, 0, True

    def raw(self, data: bytes, list_starts: bool = False) -> None:
        data = js_safe(data) if self._escape else data
        self.file.write(data)
        self._pos += len(data)
        if list_starts:
            self._first = True

    def item(self, value: Any) -> Span:
        if not self._first:
            self.raw(b",")
        self._first = False
        start = self._pos
        self.raw(to_json(value))
        return start, self._pos - start

    def read(self, span: Span) -> bytes:
        self.file.flush()
        return os.pread(self.file.fileno(), span[1], span[0])


def open_list(head: dict[str, Any], key: str) -> bytes:
    """`head` as JSON up to its closing brace, then `key` and the opening of its list."""
    return to_json(head)[:-1] + b"," + to_json(key) + b":["


def copy_static(site: Path) -> list[str]:
    """Copy the package's static/ files into site/static/; their names, sorted."""
    source = resources.files("macrs_sim.viewer").joinpath("static")
    target = site / "static"
    target.mkdir(parents=True, exist_ok=True)
    names = sorted(f.name for f in source.iterdir() if f.is_file())
    for name in names:
        (target / name).write_bytes(source.joinpath(name).read_bytes())
    return names


def _shown(value: Any) -> Any:
    """Every value a template writes, as the reports show text (textsafe): control and
    bidi characters as visible marks; the engine then escapes its HTML."""
    return page_text(value) if isinstance(value, str) and not hasattr(value, "__html__") else value


def render_page(site: Path, template: str, **context: Any) -> Path:
    env = jinja2.Environment(
        finalize=_shown,
        loader=jinja2.PackageLoader("macrs_sim.viewer", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    path = site / template.removesuffix(".j2")
    path.write_text(env.get_template(template).render(**context), encoding="utf-8")
    return path
