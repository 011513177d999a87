"""The MCP server: one lowlevel `mcp` Server whose tools are the catalogue's visible tools.

Arguments are validated with the tool's pydantic model so an error names the argument; a
failure never reaches the caller as a stack trace; every result carries structured content
(null and empty optional fields left out) and a compact text rendering of the same answer for
a model (query_api/answers/render.py), not the JSON a second time.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import json
import logging
import time
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.models import InitializationOptions
from pydantic import BaseModel, ValidationError

from query_api.access.auth import LOCAL_USER, Principal
from query_api.access.read_scope import reading_as
from query_api.answers.render import render
from query_api.errors import QueryApiError
from query_api.metrics import Metrics
from query_api.server.call_guard import CallGuard
from query_api.server.tool_access import caller_of, check_call, filter_result, may_list
from query_api.server.tool_catalog import ToolServices, ToolSpec
from query_api.server.tool_schemas import AdvertisedSchemas, catalogue_schemas
from query_api.server.wire_numbers import SpelledOutNumbers
from schemas.bounds import range_error, range_text
from streams.errors import StorageFull
from streams.pacer import ForegroundPacer
from streams.redact import redact, redact_values

log = logging.getLogger(__name__)


def describe_validation_error(
    tool: str, exc: ValidationError, model: type[BaseModel] | None = None
) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = tuple(err.get("loc", ()))
        where = ".".join(str(p) for p in loc) or "arguments"
        message = err.get("msg", "invalid")
        if err.get("type") == "extra_forbidden":
            top = model if len(loc) == 1 else None  # a nested model's fields are not these
            message = "unknown argument" + _known_arguments(top, str(loc[0]) if loc else "")
        ranged = None if model is None else range_error(model, loc, err["type"], err.get("input"))
        if ranged is None and err.get("type") in TYPE_ERRORS:
            ranged = _not_a_number(model, loc, err["type"], err.get("input"))
        if ranged is None and err.get("type") in SHAPES:
            ranged = _wrong_shape(model, loc, err["type"], err.get("input"))
        if ranged is None and err.get("type") == "missing":
            ranged = _missing(model, loc)
        parts.append(ranged or f"`{where}`: {message}")
    return f"invalid arguments for {tool}: " + "; ".join(parts)


# strict numbers: a string or a boolean, or for an integer a number written with a fraction
TYPE_ERRORS = frozenset({"int_type", "int_from_float", "int_parsing", "float_type"})
SPELLED_OUT = frozenset({"inf", "-inf", "nan"})  # non-finite numbers (wire_numbers.py)


def _not_a_number(
    model: type[BaseModel] | None, loc: tuple[Any, ...], kind: str, value: Any
) -> str | None:
    """`k` must be an integer from 1 to 100 (got "3"); None for a nested field."""
    if model is None or len(loc) != 1 or loc[0] not in model.model_fields:
        return None
    if kind == "float_type" and value in SPELLED_OUT:  # 1e999 as sent, not the string "inf"
        return range_error(model, loc, "finite_number", float(value))
    words = range_text(model.model_fields[str(loc[0])])
    what = "a number" if kind == "float_type" else "an integer"
    shown = json.dumps(value, default=repr)  # as the caller wrote it: "3", true, null
    return f"`{loc[0]}` must be {what}{' ' + words if words else ''} (got {shown[:40]})"


# a container of the wrong kind: what the argument must be (pydantic says "Input should be a
# valid dictionary", which names neither what came nor what the object holds)
SHAPES = {"dict_type": "an object", "list_type": "an array"}


def _json_kind(value: Any) -> str:
    """What a JSON value is, as an agent wrote it: "an array", "a string", "null"."""
    if value is None:
        return "null"
    kinds = ((bool, "a boolean"), (dict, "an object"), (list, "an array"), (str, "a string"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "a number")


def _wrong_shape(model: type[BaseModel] | None, loc: tuple[Any, ...], kind: str, value: Any) -> str:
    """`addLinks` must be an object, got an array: relation -> target keys (...): the field's
    description, when it has one, says what the object holds."""
    where = ".".join(str(p) for p in loc) or "arguments"
    text = f"`{where}` must be {SHAPES[kind]}, got {_json_kind(value)}"
    field = model.model_fields.get(str(loc[0])) if model is not None and len(loc) == 1 else None
    described = field.description if field is not None else None
    return f"{text}: {described.rstrip('.')}" if described else text


def _missing(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> str | None:
    """`path` is required: the field's description (pydantic says "Field required"), or
    None for a field without one or a nested one."""
    field = model.model_fields.get(str(loc[0])) if model is not None and len(loc) == 1 else None
    described = field.description if field is not None else None
    if not described:
        return None
    # "The repository root" reads on after the colon as "the repository root"; "ID" stays
    first = described[0].lower() if described[1:2].islower() else described[0]
    return f"`{loc[0]}` is required: {first}{described[1:].rstrip('.')}"


def _known_arguments(model: type[BaseModel] | None, name: str) -> str:
    """What an unknown argument's caller meant (`links` -> `addLinks`), else what the tool
    takes: an agent guessing a name from the description learns the right one in one try."""
    if model is None:
        return ""
    shared = {
        f for base in model.__bases__ if issubclass(base, BaseModel) for f in base.model_fields
    }
    # the tool's own arguments: the base's (`region`, accepted and ignored) would be noise
    known = [info.alias or f for f, info in model.model_fields.items() if f not in shared]
    close = difflib.get_close_matches(name, known, n=1)
    if close:
        return f" (did you mean `{close[0]}`?)"
    return f" (it takes {', '.join(known)})" if known else " (it takes none)"


def server_version() -> str:
    """This distribution's version for `serverInfo` (the SDK would report its own)."""
    try:
        return importlib.metadata.version("repocontext")
    except importlib.metadata.PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


def _may_hold_credentials(payload: dict[str, Any]) -> bool:
    text = json.dumps(payload, ensure_ascii=False)
    return "@" in text or "=" in text or "earer" in text


def _error(text: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=redact(text))], isError=True
    )


def _compact_schema(node: Any) -> Any:
    """The schema without titles and descriptions: the shape is what a model needs."""
    if isinstance(node, dict):
        return {
            k: _compact_schema(v)
            for k, v in node.items()
            if k not in ("title", "description") or not isinstance(v, str)
        }
    if isinstance(node, list):
        return [_compact_schema(v) for v in node]
    return node


def tool_definitions(specs: list[ToolSpec], compact: bool = False) -> list[types.Tool]:
    """The advertised tools, listed together (query_api/server/tool_schemas.py says each shared
    definition once); `compact` keeps one sentence of description and no output schema."""
    schemas = catalogue_schemas([(spec.name, spec.args, spec.result) for spec in specs])
    return [_definition(spec, s, compact) for spec, s in zip(specs, schemas, strict=True)]


def tool_definition(spec: ToolSpec, compact: bool = False) -> types.Tool:
    """One tool advertised alone."""
    return tool_definitions([spec], compact)[0]


def _definition(spec: ToolSpec, schemas: AdvertisedSchemas, compact: bool) -> types.Tool:
    description = spec.description.split(". ")[0].rstrip(".") + "." if compact else spec.description
    return types.Tool(
        name=spec.name,
        description=description,
        inputSchema=_compact_schema(schemas.input) if compact else schemas.input,
        outputSchema=None if compact else schemas.output,
        annotations=types.ToolAnnotations(
            readOnlyHint=not spec.writes,
            destructiveHint=spec.writes,
            idempotentHint=True,
            openWorldHint=False,
        ),
    )


class _Server(Server[Any, Any]):
    """The SDK's server reading through `SpelledOutNumbers` (query_api/server/wire_numbers.py), so a
    non-finite number is refused by name instead of arriving as null."""

    async def run(self, read_stream: Any, write_stream: Any, *args: Any, **kwargs: Any) -> None:
        wrapped: Any = SpelledOutNumbers(read_stream)  # duck-typed: entered, iterated, closed
        await super().run(wrapped, write_stream, *args, **kwargs)

    async def _get_cached_tool_definition(self, tool_name: str) -> types.Tool | None:
        """None, without the SDK's lookup: it serves only the SDK's own checks of arguments
        (we validate them, by name, with the tool's model) and of results other than a
        CallToolResult (ours are one), and for a name not listed it re-ran tools/list and
        logged a warning on every call."""
        return None

    def create_initialization_options(self, *args: Any, **kwargs: Any) -> InitializationOptions:
        """The SDK's, without `"experimental": {}` in the capabilities it announces."""
        options = super().create_initialization_options(*args, **kwargs)
        if not options.capabilities.experimental:
            options.capabilities.experimental = None
        return options


def build_server(
    services: ToolServices,
    specs: list[ToolSpec],
    metrics: Metrics,
    timeout_s: float,
    compact: bool = False,
    pacer: ForegroundPacer | None = None,
    guard: CallGuard | None = None,
    caller: Principal = LOCAL_USER,
) -> Server[Any, Any]:
    """The lowlevel server answering each spec with its handler among `services`; `caller`
    is who calls over a transport without HTTP requests (tool_access.caller_of)."""
    server: Server[Any, Any] = _Server("repocontext", version=server_version())
    by_name = {spec.name: spec for spec in specs}
    guard = guard or CallGuard(timeout_s)
    listed: dict[tuple[str, ...], list[types.Tool]] = {}  # by the names a caller may see

    @server.list_tools()  # type: ignore[no-untyped-call, untyped-decorator]
    async def list_tools() -> list[types.Tool]:
        principal = caller_of(server, caller)
        visible = [spec for spec in specs if may_list(principal, spec)]
        names = tuple(spec.name for spec in visible)
        if names not in listed:  # a shared definition is spelled out by a tool the caller sees
            listed[names] = tool_definitions(visible, compact)
        return listed[names]

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any] | None) -> types.CallToolResult:
        principal = caller_of(server, caller)
        spec = by_name.get(name)  # a tool the caller may not see is unknown to them
        visible = {name: spec} if spec is not None and may_list(principal, spec) else {}
        if pacer is None:
            return await invoke(services, visible, name, arguments, metrics, guard, principal)
        with pacer.lease():  # background embedding waits while a caller does
            return await invoke(services, visible, name, arguments, metrics, guard, principal)

    return server


async def invoke(
    services: ToolServices,
    by_name: dict[str, ToolSpec],
    name: str,
    arguments: dict[str, Any] | None,
    metrics: Metrics,
    guard: CallGuard,
    principal: Principal = LOCAL_USER,
) -> types.CallToolResult:
    """Validate, authorise, run with a deadline, and shape the result of one tool call."""
    spec = by_name.get(name)
    if spec is None:
        return _error(f"unknown tool {name!r}; tools/list shows the available tools")
    started = time.perf_counter()
    outcome = "ok"
    try:
        if arguments is not None and not isinstance(arguments, dict):
            raise QueryApiError("arguments must be a JSON object")
        args = spec.args.model_validate(arguments or {})
        check_call(principal, spec, args)
        handler = spec.handler(services)
        with reading_as(principal):  # every entry the call hydrates obeys the caller's grants
            result: BaseModel = await guard.run(
                spec, getattr(args, "repoId", None), lambda: handler(args)
            )
        result = filter_result(principal, result)
        payload, text = render(result)
        if "@" in text or "=" in text or "earer" in text or _may_hold_credentials(payload):
            payload = redact_values(payload)  # credentials never leave in results
            text = redact(text)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=text)], structuredContent=payload
        )
    except ValidationError as exc:
        outcome = "invalid_arguments"
        return _error(describe_validation_error(name, exc, spec.args))
    except QueryApiError as exc:
        outcome = "refused"
        return _error(str(exc))
    except TimeoutError:
        outcome = "timeout"
        return _error(f"{name} did not finish within {guard.timeout_s:g} s; try again shortly")
    except StorageFull as exc:  # the operator's problem, said plainly; the path stays in the log
        outcome = "storage_full"
        log.error("tool %s: %s", name, exc)
        return _error(
            f"{name} could not write: the server's disk is full; nothing was half-applied, "
            "retry once the operator frees space"
        )
    except Exception as exc:
        outcome = "internal_error"
        log.exception("tool %s failed", name)
        return _error(f"internal error in {name} ({type(exc).__name__}); see the server log")
    finally:
        metrics.record_call(name, outcome, time.perf_counter() - started)
