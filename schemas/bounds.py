"""Numeric tool arguments: every number has a range, is finite, and a refusal names both.

The tool's pydantic model is the edge: the MCP server validates with it before any service
runs, so a refused number writes nothing. The JSON Schema the tools advertise carries the same
minimum/maximum, so an agent sees a range before it calls. Values outside a range are refused
rather than clamped: `k: -5` or `ttlSeconds: 1e308` is a caller's mistake worth hearing about.
"""

from __future__ import annotations

import math
from typing import Any

import annotated_types as at
from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

# The furthest expiry an entry may ask for: far beyond any real use, and far inside what a
# timestamp can represent (1e12 s overflows the year 9999).
MAX_TTL_SECONDS = 100 * 365 * 86_400
# Fencing tokens are stored as SQLite INTEGERs (signed 64-bit).
MAX_FENCE = 2**63 - 1
RANGE_ERRORS = frozenset(
    {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number"}
)


def int_arg(default: int, lo: int, hi: int, description: str) -> Any:
    """An integer argument in lo..hi (inclusive). Strict: `"3"`, `true` and `2.0` are refused
    (a lax integer took `true` as 1 and `"3"` as 3 without a word)."""
    return Field(
        default=default, ge=lo, le=hi, strict=True, description=f"{description} {lo}..{hi}."
    )


def float_arg(
    default: float | None,
    description: str,
    *,
    hi: float,
    lo: float | None = None,
    positive: bool = False,
) -> Any:
    """A finite number in lo..hi, or in (0, hi] when `positive`. Strict: `"5"` and `true`
    are refused (a lax number took `ttlSeconds: true` as one second)."""
    return Field(
        default=default,
        strict=True,
        ge=None if positive else lo,
        gt=0 if positive else None,
        le=hi,
        allow_inf_nan=False,
        description=description,
    )


def _bounds(field: FieldInfo) -> tuple[str | None, str | None]:
    low = high = None
    for item in field.metadata:
        if isinstance(item, at.Gt):
            low = "positive" if item.gt == 0 else f"greater than {item.gt}"
        elif isinstance(item, at.Ge):
            low = f"at least {item.ge}"
        elif isinstance(item, at.Le):
            high = f"at most {item.le}"
        elif isinstance(item, at.Lt):
            high = f"less than {item.lt}"
    return low, high


def range_text(field: FieldInfo) -> str | None:
    """`positive and at most 3153600000`, `from 1 to 100`: the accepted range in words."""
    low, high = _bounds(field)
    if low is None and high is None:
        return None
    if low and high and low.startswith("at least") and high.startswith("at most"):
        return f"from {low.removeprefix('at least ')} to {high.removeprefix('at most ')}"
    return " and ".join(part for part in (low, high) if part)


def _shown(value: Any) -> str:
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return str(value)
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def range_error(model: type[BaseModel], loc: tuple[Any, ...], kind: str, value: Any) -> str | None:
    """The refusal of an out-of-range number, naming the argument, its range and the value;
    None when the error is not about a number's range."""
    if kind not in RANGE_ERRORS or len(loc) != 1 or loc[0] not in model.model_fields:
        return None
    name = str(loc[0])
    words = range_text(model.model_fields[name])
    finite = "a finite number" + (f", {words}" if words else "")
    return f"`{name}` must be {finite if kind == 'finite_number' else words} (got {_shown(value)})"
