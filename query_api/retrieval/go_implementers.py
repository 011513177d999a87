"""The Go types implementing an interface, by their method sets.

A Go type implements an interface by declaring its methods; nothing at the type names the
interface, so `what implements X` read for `implements X` clauses (users_first.implementers)
found no Go type and fell back to the files using the name. QA on rs/zerolog: `what
implements LogObjectMarshaler` listed the files taking one as a parameter, not the types
declaring `MarshalZerologObject`. Here the interface's methods (its own, and those of the
interfaces it embeds, as the symbol views store them: `pkg.Iface.Method`) are looked up by
name, and a receiver type declaring every one of them, in the files of one package, is an
implementer. Names only: a same-named method with other parameters counts too.

An interface of the standard library (`io.WriteCloser`, `net.Conn`, `error`) is declared in
no file of the repository, so its method set is written here (STDLIB_INTERFACES). QA on
gorilla/websocket: `which types implement io.WriteCloser` listed the files using the name
and said none declares a type implementing it, messageWriter and flateWriteWrapper
declaring Write and Close.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from query_api.retrieval.users_first import declarations_named, last_part
from query_api.symbols.dependents import is_test_path
from streams.stores.views.symbols import SymbolRow, SymbolViews

INTERFACE_KIND = "Interface"
METHOD_KIND = "Method"
MAX_INTERFACES = 5  # interfaces of the name read (a name declared in several packages)
MAX_EMBEDDED = 2  # levels of embedded interfaces followed
# a line of an interface's body embedding another: `io.Reader`, `LogObjectMarshaler`
_EMBEDDED = re.compile(r"^\s*((?:[A-Za-z_]\w*\.)?[A-Za-z_]\w*)\s*(?://.*)?$")


_IO = {
    "Reader": ("Read",), "Writer": ("Write",), "Closer": ("Close",), "Seeker": ("Seek",),
    "ReadCloser": ("Read", "Close"), "WriteCloser": ("Write", "Close"),
    "ReadWriter": ("Read", "Write"), "ReadWriteCloser": ("Read", "Write", "Close"),
    "ReadSeeker": ("Read", "Seek"), "ReaderAt": ("ReadAt",), "WriterAt": ("WriteAt",),
    "ReaderFrom": ("ReadFrom",), "WriterTo": ("WriteTo",), "StringWriter": ("WriteString",),
    "ByteReader": ("ReadByte",), "ByteWriter": ("WriteByte",), "RuneReader": ("ReadRune",),
}  # fmt: skip
_CONN = ("Read", "Write", "Close", "LocalAddr", "RemoteAddr", "SetDeadline",
         "SetReadDeadline", "SetWriteDeadline")  # fmt: skip
# the standard library's interfaces by their qualified names, each with its methods' names
STDLIB_INTERFACES: dict[str, frozenset[str]] = {
    **{f"io.{name}": frozenset(methods) for name, methods in _IO.items()},
    "error": frozenset({"Error"}),
    "fmt.Stringer": frozenset({"String"}),
    "net.Conn": frozenset(_CONN),
    "net.Error": frozenset({"Error", "Timeout", "Temporary"}),
    "http.Handler": frozenset({"ServeHTTP"}),
    "http.ResponseWriter": frozenset({"Header", "Write", "WriteHeader"}),
    "http.Flusher": frozenset({"Flush"}),
    "http.Hijacker": frozenset({"Hijack"}),
    "http.RoundTripper": frozenset({"RoundTrip"}),
    "sort.Interface": frozenset({"Len", "Less", "Swap"}),
    "heap.Interface": frozenset({"Len", "Less", "Swap", "Push", "Pop"}),
    "context.Context": frozenset({"Deadline", "Done", "Err", "Value"}),
    "json.Marshaler": frozenset({"MarshalJSON"}),
    "json.Unmarshaler": frozenset({"UnmarshalJSON"}),
    "encoding.TextMarshaler": frozenset({"MarshalText"}),
    "encoding.TextUnmarshaler": frozenset({"UnmarshalText"}),
}


# `where is DiagnosticWriter implemented`, `where is the Body interface implemented`: for a Go
# interface (or a Python Protocol: structural_implementers.py), the types implementing it, as
# `what implements X` asks (QA on hashicorp/hcl: the question was read for the interface's
# definition, diagnostic.go first, and the two writers implementing it came second and
# fifth); `implemented for T` asks for one type's
_IMPLEMENTED = re.compile(
    r"^\s*where\s+(?:is|are)\s+(?:the\s+)?`?([A-Za-z_][\w.]*)`?(?:\s+(?:interface|protocol))?"
    r"\s+implemented\s*\??\s*$",
    re.IGNORECASE,
)


def implemented_interface(query: str) -> str | None:
    """The name a `where is X implemented` question asks the implementations of, else None."""
    found = _IMPLEMENTED.match(query)
    return found.group(1) if found is not None else None


def go_implementers(symbols: SymbolViews, repo_id: str, name: str) -> list[str]:
    """The files declaring the methods of a Go type that implements the Go interface
    `name`: code before tests, then by path; empty when no Go interface is declared so
    and the standard library has none of the name."""
    return sorted(implementing_types(symbols, repo_id, name)[0], key=_code_first)


def implementing_types(
    symbols: SymbolViews, repo_id: str, name: str
) -> tuple[dict[str, set[str]], set[str]]:
    """Each file declaring methods of a Go type implementing the Go interface `name`, with
    the qualified names of those types (`hclsyntax.Body`) declared there; and the names of
    the methods the interface asks for."""
    rows = symbols.symbols_named(repo_id, [last_part(name)])
    interfaces = [
        row
        for row in declarations_named(name, rows)
        if row.kind == INTERFACE_KIND and row.path.endswith(".go")
    ][:MAX_INTERFACES]
    stdlib = STDLIB_INTERFACES.get(name)
    if not interfaces and stdlib is not None:
        methods = symbols.symbols_named(repo_id, sorted(stdlib))
        return _implementing_files(methods, set(stdlib)), set(stdlib)
    found: dict[str, set[str]] = {}
    asked: set[str] = set()
    for interface in interfaces:
        wanted = _method_names(symbols, repo_id, interface, MAX_EMBEDDED)
        if wanted:
            asked |= wanted
            methods = symbols.symbols_named(repo_id, sorted(wanted))
            for path, types in _implementing_files(methods, wanted).items():
                found.setdefault(path, set()).update(types)
    return found, asked


def _code_first(path: str) -> tuple[bool, str]:
    return is_test_path(path), path


def _method_names(symbols: SymbolViews, repo_id: str, interface: SymbolRow, depth: int) -> set[str]:
    """The methods `interface` asks for: its own, and its embedded interfaces': the standard
    library's by STDLIB_INTERFACES (`io.Reader`), another declared in this repository by its
    package (the interface's own for an unqualified name); an embedded interface of another
    unknown package is not followed."""
    own = symbols.symbols_of_file(repo_id, interface.path)
    prefix = interface.fq_name + "."
    names = {row.name for row in own if row.kind == METHOD_KIND and row.fq_name.startswith(prefix)}
    if depth <= 0:
        return names
    package = _package(interface.fq_name)
    for embedded in _embedded_names(symbols, repo_id, interface):
        stdlib = STDLIB_INTERFACES.get(embedded)
        if stdlib is not None:
            names |= stdlib
            continue
        qualifier, _, name = embedded.rpartition(".")
        for row in symbols.symbols_named(repo_id, [name]):
            if (
                row.kind == INTERFACE_KIND
                and row.path.endswith(".go")
                and row != interface
                and _package(row.fq_name) == (qualifier or package)
            ):
                names |= _method_names(symbols, repo_id, row, depth - 1)
                break
    return names


def _package(fq_name: str) -> str:
    """The package name a Go declaration's qualified name opens with (`stiface` of
    `stiface.Writer`): a same-named interface of another package (gcsfs's internal `Writer`
    beside io's) is another interface, whose methods are not asked for."""
    return fq_name.rpartition(".")[0].rpartition(".")[2]


def _embedded_names(symbols: SymbolViews, repo_id: str, interface: SymbolRow) -> list[str]:
    """The names an interface's body embeds as written (`io.Reader`, `LogObjectMarshaler`),
    read from its lines in the stored text."""
    row = symbols.store.get_content(repo_id, interface.path)
    if row is None:
        return []
    lines = row.body.split("\n")[
        interface.start_line : max(interface.start_line, interface.end_line - 1)
    ]
    return [m.group(1) for line in lines if (m := _EMBEDDED.match(line)) is not None]


def _implementing_files(methods: Sequence[SymbolRow], wanted: set[str]) -> dict[str, set[str]]:
    """The files declaring the methods of each receiver type (per package folder) whose
    methods take in every name of `wanted`, each with those types."""
    by_type: dict[tuple[str, str], dict[str, str]] = {}
    for row in methods:
        if row.kind != METHOD_KIND or not row.path.endswith(".go"):
            continue
        if not (row.signature or "").startswith("func "):  # an interface's method spec
            continue
        folder = row.path.rpartition("/")[0]
        receiver = row.fq_name.rpartition(".")[0]
        by_type.setdefault((folder, receiver), {})[row.name] = row.path
    found: dict[str, set[str]] = {}
    for (_, receiver), declared in by_type.items():
        if wanted <= declared.keys():
            for path in declared.values():
                found.setdefault(path, set()).add(receiver)
    return found
