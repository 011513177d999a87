"""What a tool answer puts on the wire: the structured JSON once, and a compact text for a model.

Every answer carries `structuredContent` (the result model as JSON, for programs and for the
clients that hand that object to the model) and one text block (a rendering meant for a model
to read: query_api/answers/text.py), never the same JSON twice. Fields that are null or empty
and not required by the tool's output schema are left out of the JSON: a bulk read's
`"stale": null` or an empty `"tags": []` says nothing an absent field does not.

`wire_tokens` counts the JSON-RPC response these make, exactly as the SDK serialises it, so a
`responseTokens` computed with it is what the caller receives (give or take the digits of the
request id).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from processors.tokens import count_tokens
from query_api.answers.text import render_text


def pruned(model: BaseModel) -> dict[str, Any]:
    """The model as JSON values without the optional fields that hold nothing."""
    dumped = model.model_dump(mode="json")
    return _prune_like(model, dumped)


def _prune_like(model: BaseModel, dumped: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, info in type(model).model_fields.items():
        key = info.alias or name
        if key not in dumped:
            continue
        value = dumped[key]
        if not info.is_required() and _is_empty(value):
            continue
        out[key] = _prune_value(getattr(model, name), value)
    return out


def _is_empty(value: Any) -> bool:
    """None, or an empty str, list or dict of exactly those types (a subclass or an equal
    value of another type, such as 0 or False, is not empty); asked of every dumped value."""
    kind = type(value)
    if kind is str or kind is list or kind is dict:
        return not value
    return value is None


def _prune_value(original: Any, value: Any) -> Any:
    if isinstance(original, BaseModel) and isinstance(value, dict):
        return _prune_like(original, value)
    if isinstance(original, list | tuple) and isinstance(value, list):
        return [_prune_value(o, v) for o, v in zip(original, value, strict=False)]
    if isinstance(original, dict) and isinstance(value, dict):
        return {k: _prune_value(original.get(k), v) for k, v in value.items() if not _is_empty(v)}
    return value


def compact_json(payload: Any) -> str:
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False)


def wire_message(payload: dict[str, Any], text: str) -> str:
    """The JSON-RPC response of a successful tool call as the SDK writes it (compact, by
    alias, nulls excluded; a one-digit id stands for the caller's)."""
    result = {
        "content": [{"type": "text", "text": text}],
        "structuredContent": payload,
        "isError": False,
    }
    return compact_json({"jsonrpc": "2.0", "id": 1, "result": result})


def wire_tokens(
    payload: dict[str, Any], text: str, count: Callable[[str], int] = count_tokens
) -> int:
    return count(wire_message(payload, text))


def render(model: BaseModel) -> tuple[dict[str, Any], str]:
    """(structuredContent, text) of one answer."""
    payload = pruned(model)
    return payload, render_text(model, payload)
