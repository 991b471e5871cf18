"""Argument helpers shared by the tools: item lists and text-path parsing."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator


class ToolInputError(Exception):
    """The caller (a model) asked for something the tool cannot do; the message is shown to it."""


def _split_items(value: object) -> object:
    """A list, a JSON list in a string, or "a; b; c" (titles may contain commas, so ';')."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            pass
    parts = text.replace("\n", ";").split(";")
    return [p.strip().strip("\"'") for p in parts if p.strip().strip("\"'")]


# Item ids or titles, one per entry.
ItemList = Annotated[list[str], BeforeValidator(_split_items)]


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].strip()
    return text


def text_to_args(raw: Mapping[str, Any] | str, args_type: type[BaseModel]) -> dict[str, Any]:
    """ReAct-style input: a mapping, a JSON object, or plain text for the tool's main argument."""
    if isinstance(raw, Mapping):
        return dict(raw)
    text = raw.strip()
    if text.startswith("{"):
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as err:
            raise ToolInputError(f"input is not valid JSON ({err.msg} at char {err.pos})") from None
        if not isinstance(parsed, dict):
            raise ToolInputError("input JSON must be an object of arguments")
        return parsed
    main = getattr(args_type, "text_field", None)
    if not isinstance(main, str):
        raise ToolInputError("this tool takes a JSON object of arguments")
    return {main: _unquote(text)}


def first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()
    return text[0] if text else type(err).__name__


def validation_message(err: Exception) -> str:
    """A pydantic ValidationError as one line: each bad field and why."""
    errors = getattr(err, "errors", None)
    if errors is None:
        return first_line(err)
    parts = []
    for e in errors():
        where = ".".join(str(p) for p in e.get("loc", ())) or "input"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return "invalid arguments: " + "; ".join(parts)
