"""The JSON Schemas `tools/list` advertises: the argument and result models' shapes, said once.

An agent pays for every token of `tools/list` before its first call, so the schemas carry what
a caller needs to build a call or read an answer and nothing pydantic adds for its own sake:
- no `title` (pydantic's capitalised field name, "Repoid") and no `default: null`;
- an optional field that defaults to null is advertised without the null branch: omitting it
  is how a caller says "none", and answers never carry a null (query_api/answers/render.py
  leaves out every optional field that holds nothing), so the narrower schema stays true;
- a definition several tools share (Freshness, EntryView, IndexStatus, ...) is spelled out in
  one tool's outputSchema and named by the others ("Freshness: see repocontext_health").
  Clients validate answers with each tool's schema alone (the MCP SDK resolves no reference
  outside it), so a named definition is a plain `object` there: still valid, less detailed;
- the description of an argument every tool takes alike (`region`) is said by the first only.
Names, required fields, ranges and vocabularies (enums) are kept everywhere: they are contract.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

# schema keywords whose value is a map from names to subschemas (the names are not keywords)
_NAMED_SUBSCHEMAS = ("properties", "$defs", "patternProperties")


def lean_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model`'s JSON Schema without titles, null defaults and null branches of optional fields."""
    lean: dict[str, Any] = _lean(model.model_json_schema())
    return lean


def _lean(node: Any) -> Any:
    if isinstance(node, list):
        return [_lean(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in _NAMED_SUBSCHEMAS and isinstance(value, dict):
            out[key] = {name: _lean(sub) for name, sub in value.items()}
        else:
            out[key] = _lean(value)
    required = set(out.get("required", ()))
    properties = out.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            if name not in required and isinstance(sub, dict):
                properties[name] = _without_null(sub)
    return out


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """An optional property whose default is null, advertised as its non-null shape."""
    if "default" not in schema or schema["default"] is not None:
        return schema
    rest = {k: v for k, v in schema.items() if k != "default"}
    branches = rest.get("anyOf")
    if not isinstance(branches, list):
        return rest
    kept = [b for b in branches if b != {"type": "null"}]
    if len(kept) == len(branches) or not kept:
        return rest
    del rest["anyOf"]
    if len(kept) > 1:
        return {"anyOf": kept, **rest}
    only = kept[0]
    if "$ref" in only and rest:  # a sibling of $ref is ignored by older drafts: keep it apart
        return {"allOf": [only], **rest}
    return {**only, **rest}


@dataclass(frozen=True)
class AdvertisedSchemas:
    """One tool's advertised input and output schema."""

    input: dict[str, Any]
    output: dict[str, Any] | None


def catalogue_schemas(
    tools: Sequence[tuple[str, type[BaseModel], type[BaseModel]]],
) -> list[AdvertisedSchemas]:
    """The schemas of `tools` (name, argument model, result model) as listed together, in
    order: each shared definition spelled out by one tool and named by the others."""
    inputs = [lean_schema(args) for _, args, _ in tools]
    outputs = [lean_schema(result) for _, _, result in tools]
    _say_descriptions_once(inputs)
    roots = [
        _identity(result.__name__, schema)
        for (_, _, result), schema in zip(tools, outputs, strict=True)
    ]
    owners = _definition_owners([name for name, _, _ in tools], roots, outputs)
    shared = [
        _name_shared(name, root, schema, owners)
        for (name, _, _), root, schema in zip(tools, roots, outputs, strict=True)
    ]
    return [AdvertisedSchemas(i, o) for i, o in zip(inputs, shared, strict=True)]


def _fingerprint(schema: Any) -> str:
    return json.dumps(schema, sort_keys=True, separators=(",", ":"))


def _identity(def_name: str, schema: dict[str, Any]) -> tuple[str, str]:
    """A definition is shared when both its model name and its shape are the same."""
    return def_name, _fingerprint({k: v for k, v in schema.items() if k != "$defs"})


def _definition_owners(
    names: list[str], roots: list[tuple[str, str]], outputs: list[dict[str, Any]]
) -> dict[tuple[str, str], str]:
    """(definition name, its schema) -> the tool that spells it out. A tool answering with the
    definition itself (recall's EntryView, index_status's IndexStatus) owns it; else the first
    tool that uses it."""
    owners: dict[tuple[str, str], str] = {}
    for name, root in zip(names, roots, strict=True):
        owners.setdefault(root, name)
    for name, schema in zip(names, outputs, strict=True):
        for def_name, definition in schema.get("$defs", {}).items():
            if _is_object(definition):
                owners.setdefault(_identity(def_name, definition), name)
    return owners


def _is_object(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "object" and "properties" in schema


def _named(def_name: str, owner: str) -> dict[str, Any]:
    return {"type": "object", "description": f"{def_name}: see {owner}'s outputSchema"}


def _name_shared(
    tool: str, root: tuple[str, str], schema: dict[str, Any], owners: dict[tuple[str, str], str]
) -> dict[str, Any]:
    if owners[root] != tool:
        return _named(root[0], owners[root])
    definitions = schema.get("$defs")
    if not definitions:
        return schema
    out = dict(schema)
    out["$defs"] = {
        def_name: (
            _named(def_name, owners[_identity(def_name, body)])
            if _is_object(body) and owners.get(_identity(def_name, body), tool) != tool
            else body
        )
        for def_name, body in definitions.items()
    }
    return _only_reachable(out)


def _only_reachable(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` without the definitions nothing refers to any more."""
    definitions: dict[str, Any] = schema["$defs"]
    body = {k: v for k, v in schema.items() if k != "$defs"}
    reached: set[str] = set()
    pending = list(_refs(body))
    while pending:
        name = pending.pop()
        if name in reached or name not in definitions:
            continue
        reached.add(name)
        pending.extend(_refs(definitions[name]))
    kept = {name: d for name, d in definitions.items() if name in reached}
    return {**body, "$defs": kept} if kept else body


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [] if "$ref" not in node else [str(node["$ref"]).rsplit("/", 1)[-1]]
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _say_descriptions_once(inputs: list[dict[str, Any]]) -> None:
    """Say the description of an argument every listed tool takes alike (`region`, from the
    shared base) in the first tool only. A tool-specific argument keeps its description in
    every tool (`key`'s grammar): a client may show a model one tool at a time."""
    described = [
        {(n, p["description"]) for n, p in schema.get("properties", {}).items() if _described(p)}
        for schema in inputs
    ]
    if len(inputs) < 2:
        return
    everywhere = set.intersection(*described)
    for schema in inputs[1:]:
        for name, prop in schema.get("properties", {}).items():
            if _described(prop) and (name, prop["description"]) in everywhere:
                del prop["description"]


def _described(prop: Any) -> bool:
    return isinstance(prop, dict) and isinstance(prop.get("description"), str)
