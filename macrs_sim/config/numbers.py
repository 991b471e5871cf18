"""Numbers in a scenario mean numbers: a boolean where a number belongs, and nan or an
infinity, are one-line errors instead of values read as something else.

pydantic reads `true` as 1 for an int or float field (an "on" switch written for
`dialogue_window` would give a one-exchange window): `bool_for_number` compares the table
as given with the options it validated into, so it holds for every registered kind's
options, an outside package's too. nan fails every bound with a message about the bound:
the scenario's tables refuse it (`allow_inf_nan=False`), and `finite_message` words it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel
from pydantic_core import ErrorDetails

from macrs_sim.errors import ConfigError

Path = tuple[str | int, ...]
# pydantic's error types for a number past a bound (which nan always is).
_BOUND_ERRORS = frozenset({"less_than", "less_than_equal", "greater_than", "greater_than_equal"})


def dotted(path: Path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def bool_for_number(raw: Any, value: Any, path: Path = ()) -> Path | None:
    """Where `raw` (a table as given) holds a boolean that became a number in `value` (what
    it validated into), or None."""
    if isinstance(raw, bool):
        return path if _is_number(value) else None
    if isinstance(raw, Mapping):
        for key, item in raw.items():
            if isinstance(value, BaseModel):
                got = getattr(value, str(key), None)
            elif isinstance(value, Mapping):
                got = value.get(key)
            else:
                return None
            found = bool_for_number(item, got, (*path, str(key)))
            if found is not None:
                return found
    elif _is_list(raw) and _is_list(value):
        for i, (item, got) in enumerate(zip(raw, value, strict=False)):
            found = bool_for_number(item, got, (*path, i))
            if found is not None:
                return found
    return None


def check_numbers(raw: Any, value: Any, where: str) -> None:
    """ConfigError (`where: field: ...`) for a boolean given for a number in `raw`."""
    found = bool_for_number(raw, value)
    if found is not None:
        flag = _at(raw, found)
        name = dotted(found)
        raise ConfigError(
            f"{where}: {name}: expected a number, found {str(flag).lower()} (a boolean is"
            " not a number)"
            if name
            else f"{where}: expected a number, found a boolean"
        )


def finite_message(error: ErrorDetails) -> str | None:
    """ "must be a finite number, found nan" for a bound or finite-number error whose input
    is nan or an infinity (given as a number or as text), else None."""
    if error["type"] not in _BOUND_ERRORS and error["type"] != "finite_number":
        return None
    given = error.get("input")
    try:
        number = float(given) if isinstance(given, str | float) else None
    except ValueError:
        return None
    if number is None or math.isfinite(number):
        return None
    return f"must be a finite number, found {_toml_float(number)}"


def _at(raw: Any, path: Path) -> Any:
    for key in path:
        raw = raw[key]
    return raw


def _toml_float(value: float) -> str:
    return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
