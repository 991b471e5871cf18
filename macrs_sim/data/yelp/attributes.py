"""Yelp's business attributes: Python literals inside JSON strings.

Since 2018 the business file's `attributes` maps names to STRINGS holding Python literals:
"True", "None", "u'free'", "'casual'", "2", and whole dict literals such as Ambience's
"{'romantic': False, 'casual': True, 'touristy': None}". They are read with
`ast.literal_eval`, never `eval`: a literal is data, and anything else (a name, a call) is
refused. Releases before 2018 stored real JSON values (2, {"romantic": false}) or, in 2017,
a list of "Name: value" strings; all three read the same. A value that is no literal, or
not of the expected kind, is absent: attributes are optional details, never a reason to
drop a business.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import Any

_LONGEST_LITERAL = 10_000  # characters; a real Ambience literal is under 200
_PRICES = {1: "$", 2: "$$", 3: "$$$", 4: "$$$$"}
_DIGITS = {str(n): n for n in _PRICES}


def literal(value: object) -> object:
    """A string's Python literal ("True" -> True, "u'free'" -> "free"); other values as
    they are; a string that is no literal comes back stripped. Read-only: the result may
    be shared with other businesses."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if len(text) > _LONGEST_LITERAL:
        return None
    return _evaluated(text)


@lru_cache(maxsize=4096)
def _evaluated(text: str) -> object:
    """Cached: a release repeats a few thousand attribute strings over 150,000 businesses,
    and parsing one is most of a business's cost."""
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return text


def attribute_map(raw: object) -> dict[str, Any]:
    """`attributes` as a mapping: the dict itself, the 2017 list of "Name: value" strings
    split at the first ": ", or nothing (null, or anything else)."""
    if isinstance(raw, dict):
        return raw
    if not isinstance(raw, list):
        return {}
    found: dict[str, Any] = {}
    for entry in raw:
        if isinstance(entry, str) and ":" in entry:
            name, _, value = entry.partition(":")
            found.setdefault(name.strip(), value.strip())
    return found


def price_range(attributes: dict[str, Any]) -> str | None:
    """ "$" to "$$$$" from RestaurantsPriceRange2 "1".."4" (or the number); else None."""
    value = literal(attributes.get("RestaurantsPriceRange2"))
    if isinstance(value, str):  # "u'2'" read as '2'
        value = _DIGITS.get(value.strip())
    if type(value) is not int:  # True is an int too, and no price
        return None
    return _PRICES.get(value)


def ambience(attributes: dict[str, Any]) -> list[str]:
    """The Ambience keys whose value is True, in the literal's order ("casual")."""
    value = literal(attributes.get("Ambience"))
    if not isinstance(value, dict):
        return []
    found: list[str] = []
    for key, on in value.items():
        name = key.strip() if isinstance(key, str) else ""
        if on is True and name and name not in found:
            found.append(name)
    return found
