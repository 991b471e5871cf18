"""Synthesize a JSON value that satisfies a pydantic model's JSON schema.

Used by the scripted client so every agent that asks for structured output gets
a valid object without a hand-written rule. Choices (enum members, union
branches) come from a hash of a caller-given key plus the JSON path, so the
same request always yields the same object, whatever else runs concurrently.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T")
Schema = dict[str, Any]

# Past this nesting depth recursive models stop growing: optional -> null, lists -> minItems.
_MAX_DEPTH = 6

_FORMATS = {
    "date-time": "2000-01-01T00:00:00Z",
    "date": "2000-01-01",
    "time": "00:00:00",
    "duration": "PT1S",
    "email": "scripted@example.com",
    "uri": "https://example.com/scripted",
    "uuid": "00000000-0000-4000-8000-000000000000",
}


def synthesize(model: type[BaseModel], key: str) -> BaseModel:
    """A valid `model` instance; ValueError when the schema has constraints we cannot meet."""
    root = model.model_json_schema()
    data = _Synth(root, key).value(root, "$", "value", 0)
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise ValueError(
            f"cannot synthesize a valid {model.__name__}: {err.errors()[0]['msg']}"
        ) from None


class _Synth:
    def __init__(self, root: Schema, key: str) -> None:
        self._defs: Schema = root.get("$defs", {})
        self._key = key

    def pick(self, options: Sequence[T], path: str) -> T:
        digest = hashlib.sha256(f"{self._key}|{path}".encode()).digest()
        return options[int.from_bytes(digest[:8], "big") % len(options)]

    def _resolve(self, node: Schema) -> Schema:
        while "$ref" in node:
            node = {**self._defs[node["$ref"].rsplit("/", 1)[-1]], **_without(node, "$ref")}
        for part in node.get("allOf", []):
            node = {**self._resolve(part), **_without(node, "allOf")}
        return node

    def value(self, node: Schema, path: str, name: str, depth: int) -> Any:
        node = self._resolve(node)
        if "const" in node:
            return node["const"]
        if "enum" in node:
            return self.pick(node["enum"], path)
        for key in ("anyOf", "oneOf"):
            if key in node:
                return self.value(self._branch(node[key], path, depth), path, name, depth)
        kind = node.get("type")
        if isinstance(kind, list):
            kind = self._branch([{"type": k} for k in kind], path, depth)["type"]
        if kind == "object":
            props: Schema = node.get("properties", {})
            return {k: self.value(v, f"{path}.{k}", k, depth + 1) for k, v in props.items()}
        if kind == "array":
            return self._array(node, path, name, depth)
        if kind in ("integer", "number"):
            return _number(node, integer=kind == "integer")
        if kind == "boolean":
            return False
        if kind == "null":
            return None
        return _string(node, name)

    def _branch(self, branches: list[Schema], path: str, depth: int) -> Schema:
        non_null = [b for b in branches if self._resolve(b).get("type") != "null"]
        if depth >= _MAX_DEPTH and len(non_null) < len(branches):
            return {"type": "null"}
        return self.pick(non_null or branches, path)

    def _array(self, node: Schema, path: str, name: str, depth: int) -> list[Any]:
        if "prefixItems" in node:
            items = node["prefixItems"]
            return [self.value(s, f"{path}[{i}]", name, depth + 1) for i, s in enumerate(items)]
        count = int(node.get("minItems", 0))
        if depth < _MAX_DEPTH:
            count = max(count, 1)
        count = min(count, int(node.get("maxItems", count)))
        item: Schema = node.get("items", {})
        return [self.value(item, f"{path}[{i}]", name, depth + 1) for i in range(count)]


def _without(node: Schema, key: str) -> Schema:
    return {k: v for k, v in node.items() if k != key}


def _number(node: Schema, *, integer: bool) -> int | float:
    value: float = 1
    if "minimum" in node:
        value = max(value, node["minimum"])
    if "exclusiveMinimum" in node:
        value = max(value, node["exclusiveMinimum"] + 1)
    if "maximum" in node:
        value = min(value, node["maximum"])
    if "exclusiveMaximum" in node:
        value = min(value, node["exclusiveMaximum"] - (1 if integer else 0.5))
    return int(value) if integer else float(value)


def _string(node: Schema, name: str) -> str:
    if node.get("format") in _FORMATS:
        return _FORMATS[node["format"]]
    text = f"scripted {name}"
    text = text.ljust(int(node.get("minLength", 0)), "x")
    return text[: int(node.get("maxLength", len(text)))]
