"""The schemas `tools/list` advertises (query_api/server/tool_schemas.py): each shared definition
and each repeated argument description said once, pydantic's titles and null defaults left out,
and nothing of the contract lost (property names, required fields, ranges, vocabularies).
The answers staying valid against the narrower schemas is checked by every integration test
that calls a tool through the MCP SDK's client, which validates structuredContent against the
listed outputSchema (tests/integration/test_no_nulls_on_the_wire.py among them)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from query_api.server.mcp_server import tool_definitions
from query_api.server.tool_catalog import ToolSpec, visible_tools
from query_api.server.tool_schemas import lean_schema

FULL = visible_tools(writes=True, has_root=True, workspace_mode=True)
RANGE_WORDS = ("minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "maxItems")


def walk(node: Any) -> list[dict[str, Any]]:
    """Every schema object inside `node` (the maps of named subschemas are not schemas)."""
    if isinstance(node, list):
        return [d for item in node for d in walk(item)]
    if not isinstance(node, dict):
        return []
    found = [node]
    for key, value in node.items():
        named = key in ("properties", "$defs") and isinstance(value, dict)
        found += [d for sub in value.values() for d in walk(sub)] if named else walk(value)
    return found


def listed() -> dict[str, Any]:
    return {t.name: t for t in tool_definitions(FULL)}


def full_definitions(name: str, tools: dict[str, Any]) -> list[str]:
    """The tools whose outputSchema spells `name` out (as a definition or as its answer)."""
    spelled = []
    for tool_name, tool in tools.items():
        schema = tool.outputSchema or {}
        body = schema.get("$defs", {}).get(name)
        if body is not None and "properties" in body:
            spelled.append(tool_name)
    return spelled


def test_a_shared_definition_is_spelled_out_once_and_named_elsewhere() -> None:
    tools = listed()
    assert full_definitions("Freshness", tools) == ["repocontext_health"]
    assert full_definitions("VectorCoverage", tools) == ["repocontext_health"]
    search_defs = tools["repocontext_search"].outputSchema["$defs"]
    assert search_defs["Freshness"] == {
        "type": "object",
        "description": "Freshness: see repocontext_health's outputSchema",
    }
    assert "VectorCoverage" not in search_defs  # only Freshness referred to it
    # an answer that is the shared model itself owns it: recall answers with an EntryView
    assert "properties" in tools["repocontext_recall"].outputSchema
    assert full_definitions("EntryView", tools) == []  # search and scan name recall's
    assert tools["repocontext_add_repo"].outputSchema == {
        "type": "object",
        "description": "IndexStatus: see repocontext_index_status's outputSchema",
    }


def test_a_named_definition_points_at_a_listed_tool_that_spells_it_out() -> None:
    """A caller shown only some tools (its grants, the profile) still finds every definition."""
    for specs in (FULL, [s for s in FULL if s.name != "repocontext_health"], FULL[1:3]):
        tools = {t.name: t for t in tool_definitions(specs)}
        for tool in tools.values():
            for node in walk(tool.outputSchema):
                text = node.get("description", "")
                if node.get("type") == "object" and text.endswith("'s outputSchema"):
                    name, owner = text.removesuffix("'s outputSchema").split(": see ")
                    assert owner in tools, (tool.name, text)
                    owned = tools[owner].outputSchema or {}
                    assert "properties" in owned.get("$defs", {}).get(name, owned), text
    without_health = {t.name: t for t in tool_definitions(FULL[1:])}
    assert full_definitions("Freshness", without_health) == ["repocontext_search"]


def test_no_titles_no_null_defaults_and_no_null_branch_on_optional_fields() -> None:
    for tool in listed().values():
        for schema in (tool.inputSchema, tool.outputSchema):
            for node in walk(schema):
                assert not isinstance(node.get("title"), str), (tool.name, node)
                assert not ("default" in node and node["default"] is None), (tool.name, node)
    search = listed()["repocontext_search"]
    assert search.inputSchema["properties"]["repoId"]["type"] == "string"
    assert search.outputSchema["properties"]["note"] == {"type": "string"}


def test_an_argument_every_tool_takes_is_described_by_the_first_only() -> None:
    """`region` (every tool's, from the shared base) is described once; an argument of some
    tools keeps its description in each, since a client may show a model one tool at a time."""
    tools = listed()
    first, later = tools["repocontext_health"], tools["repocontext_search"]
    assert first.inputSchema["properties"]["region"]["description"]
    assert "description" not in later.inputSchema["properties"]["region"]
    keyed = [t for t in tools.values() if "key" in t.inputSchema["properties"]]
    assert len(keyed) > 3
    assert all(t.inputSchema["properties"]["key"].get("description") for t in keyed)
    [alone] = tool_definitions([next(s for s in FULL if s.name == "repocontext_search")])
    assert alone.inputSchema["properties"]["region"]["description"]


def contract(model: type[BaseModel]) -> dict[str, Any]:
    """What a caller relies on: each object's properties, required fields, ranges, enums."""
    schema = model.model_json_schema()
    out: dict[str, Any] = {}
    for path, node in [("", schema)] + [(n, d) for n, d in schema.get("$defs", {}).items()]:
        properties = node.get("properties", {})
        out[path] = {
            "required": sorted(node.get("required", [])),
            "properties": {name: bounds(prop) for name, prop in properties.items()},
        }
        if "enum" in node:
            out[path]["enum"] = node["enum"]
    return out


def bounds(prop: dict[str, Any]) -> list[tuple[str, Any]]:
    branches = [b for b in prop.get("anyOf", [prop]) if b.get("type") != "null"]
    return sorted((k, b[k]) for b in branches for k in (*RANGE_WORDS, "enum") if k in b)


def advertised_contract(schema: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for path, node in [("", schema), *schema.get("$defs", {}).items()]:
        if "properties" not in node and "enum" not in node:
            continue  # named: spelled out by another tool
        out[path] = {
            "required": sorted(node.get("required", [])),
            "properties": {n: bounds(p) for n, p in node.get("properties", {}).items()},
        }
        if "enum" in node:
            out[path]["enum"] = node["enum"]
    return out


def test_nothing_of_the_contract_is_lost() -> None:
    """Each argument model whole, and each result model across the tools that spell its parts."""
    tools = listed()
    spelled: dict[str, Any] = {}
    for spec in FULL:
        tool = tools[spec.name]
        assert advertised_contract(tool.inputSchema) == contract(spec.args), spec.name
        for path, part in advertised_contract(tool.outputSchema).items():
            spelled[path or spec.result.__name__] = part
    for spec in FULL:
        wanted = contract(spec.result)
        wanted[spec.result.__name__] = wanted.pop("")
        for path, part in wanted.items():
            assert spelled[path] == part, (spec.name, path)


def test_the_lean_schema_of_one_model_keeps_nested_names_called_title() -> None:
    """`title` is a keyword of JSON Schema and also a field of remember's arguments."""
    remember: ToolSpec = next(s for s in FULL if s.name == "repocontext_remember")
    schema = lean_schema(remember.args)
    assert schema["properties"]["title"]["minLength"] == 1
    assert "title" not in schema


def test_annotations_say_which_tools_write() -> None:
    """Spec §1.1: write tools are annotated destructive (readOnly false, destructive true),
    read tools read-only and non-destructive."""
    tools = listed()
    for spec in FULL:
        hints = tools[spec.name].annotations
        assert hints is not None
        assert (hints.readOnlyHint, hints.destructiveHint) == (not spec.writes, spec.writes)
