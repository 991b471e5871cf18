"""Files of a viewer site: data as JavaScript, the page from its template, static assets.

Data files are JavaScript that hands a JSON literal to a function (`MV.chunkLoaded(3, {...})`)
because browsers refuse `fetch()` of a JSON file opened from disk (file://); a <script> tag
may load one. JSON is valid JavaScript, and as an external file it needs no HTML escaping;
still, every `</` in it is written `<\\/` (the same string in JSON), so no model text such as
"</script>" could end a <script> element should the data ever be put inline in a page.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import pydantic_core

CHUNK_DIR = "data/chunks"


def chunk_name(index: int) -> str:
    return f"c{index:05d}.js"


def to_json(value: Any) -> bytes:
    """Compact UTF-8 JSON (pydantic-core's encoder: several times faster than `json` on a
    large run); NaN and infinities become null, as JSON has no spelling for them."""
    return pydantic_core.to_json(value, inf_nan_mode="null")


def write_js_call(path: Path, call: str, *args: Any) -> None:
    """`call(arg, ...);` with each argument as a JSON literal, in UTF-8."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b", ".join(to_json(a) for a in args).replace(b"</", b"<\\/")
    path.write_bytes(f"{call}(".encode() + data + b");\n")


def write_json(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(to_json(value) + b"\n")


def copy_static(site: Path) -> list[str]:
    """Copy the package's static/ files into site/static/; their names, sorted."""
    source = resources.files("macrs_sim.viewer").joinpath("static")
    target = site / "static"
    target.mkdir(parents=True, exist_ok=True)
    names = sorted(f.name for f in source.iterdir() if f.is_file())
    for name in names:
        (target / name).write_bytes(source.joinpath(name).read_bytes())
    return names


def render_page(site: Path, template: str, **context: Any) -> Path:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("macrs_sim.viewer", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    path = site / template.removesuffix(".j2")
    path.write_text(env.get_template(template).render(**context), encoding="utf-8")
    return path
