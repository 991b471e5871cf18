"""A template body split once into literal text and placeholder names, so rendering is a
join instead of `string.Template.substitute`'s regex pass with a callback per placeholder
(a prompt is rendered twice per model call).

The split uses `string.Template`'s own pattern: `$name`, `${name}` and `$$` mean what they
mean there. A body with a `$` that is none of those is not split (None): its caller lets
`string.Template` raise its own error for it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from string import Template
from typing import NamedTuple


class SplitTemplate(NamedTuple):
    head: str  # the text before the first placeholder, `$$` already made `$`
    tail: tuple[tuple[str, str], ...]  # (placeholder name, the text after it) in order


def split_template(body: str) -> SplitTemplate | None:
    """`body` as literal text and placeholder names; None if a `$` is not a placeholder."""
    return _split(body)


# Keyed by the body: a process renders a few dozen sections, each split once; bounded so
# a long session that keeps editing prompt overrides does not keep every version.
@functools.lru_cache(maxsize=1024)
def _split(body: str) -> SplitTemplate | None:
    texts: list[str] = []  # literal pieces since the last placeholder
    names: list[str] = []
    literals: list[str] = []  # one per placeholder seen, and the head
    pos = 0
    for found in Template.pattern.finditer(body):
        if found.group("invalid") is not None:
            return None
        texts.append(body[pos : found.start()])
        name = found.group("named") or found.group("braced")
        if name is None:  # `$$`
            texts.append("$")
        else:
            literals.append("".join(texts))
            texts = []
            names.append(name)
        pos = found.end()
    texts.append(body[pos:])
    literals.append("".join(texts))
    return SplitTemplate(literals[0], tuple(zip(names, literals[1:], strict=True)))


def fill(split: SplitTemplate, mapping: Mapping[str, str]) -> str:
    """The body with each placeholder replaced by `mapping[name]`, left to right, so a
    missing name raises KeyError(name) for the first missing one, as `substitute` does."""
    parts = [split.head]
    for name, text in split.tail:
        parts.append(mapping[name])
        parts.append(text)
    return "".join(parts)
