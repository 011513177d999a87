"""The types implementing an interface by their members alone: a Go interface's (its method
set, go_implementers.py) and a Python Protocol's.

A class conforms to a `typing.Protocol` by declaring its members; nothing at the class names
the protocol, so `which classes implement the Reporter protocol` read for subclasses found
none: QA on nedbat/coveragepy ranked report_core.py (declaring `class Reporter(Protocol)`)
first and then files by their words, not JsonReporter, LcovReporter and XmlReporter, which
declare its `report_type` and `report`. Here a Python class declaring every member the
protocol declares (its fields and methods, dunders left out) in one class body is an
implementer; names only, as for Go.
"""

from __future__ import annotations

import re

from query_api.retrieval.go_implementers import METHOD_KIND, go_implementers
from query_api.retrieval.users_first import declarations_named, last_part
from query_api.symbols.dependents import is_test_path
from streams.stores.views.symbols import SymbolRow, SymbolViews

TYPE_KIND = "Type"
FIELD_KIND = "Field"
MAX_PROTOCOLS = 3  # protocols of the name read (a name declared in several modules)
MAX_IMPLEMENTERS = 12  # more classes declaring its members: names too common to tell
_PYTHON = (".py", ".pyi")
# `class Reporter(Protocol)`, `class P(typing.Protocol[T])`, `class Q(Base, Protocol)`
_PROTOCOL = re.compile(
    r"^class\s+\w+\s*(?:\[[^\]]*\])?\s*\((?:[^()]*,\s*)?(?:typing\w*\.)?Protocol\b"
)


def structural_implementers(symbols: SymbolViews, repo_id: str, name: str) -> list[str]:
    """The files declaring a type implementing the interface `name` by its members: a Go
    interface's (go_implementers), else a Python Protocol's (code before tests, then by
    path); empty when neither is declared so."""
    return go_implementers(symbols, repo_id, name) or protocol_implementers(symbols, repo_id, name)


def protocol_implementers(symbols: SymbolViews, repo_id: str, name: str) -> list[str]:
    """The files declaring a Python class that declares every member of the Protocol
    `name`, other than the protocol itself: code before tests, then by path."""
    rows = symbols.symbols_named(repo_id, [last_part(name)])
    protocols = [
        row
        for row in declarations_named(name, rows)
        if row.kind == TYPE_KIND
        and row.path.endswith(_PYTHON)
        and _PROTOCOL.match(row.signature or "")
    ][:MAX_PROTOCOLS]
    found: set[str] = set()
    for protocol in protocols:
        members = _members(symbols, repo_id, protocol)
        if members:
            found |= _declaring_all(
                symbols.symbols_named(repo_id, sorted(members)), members, protocol
            )
    if len(found) > MAX_IMPLEMENTERS:
        return []
    return sorted(found, key=lambda path: (is_test_path(path), path))


def _members(symbols: SymbolViews, repo_id: str, protocol: SymbolRow) -> set[str]:
    """The names of the fields and methods the protocol's own body declares, less dunders."""
    prefix = protocol.fq_name + "."
    return {
        row.name
        for row in symbols.symbols_of_file(repo_id, protocol.path)
        if row.kind in (FIELD_KIND, METHOD_KIND)
        and row.fq_name.startswith(prefix)
        and "." not in row.fq_name[len(prefix) :]
        and not (row.name.startswith("__") and row.name.endswith("__"))
    }


def _declaring_all(rows: list[SymbolRow], members: set[str], protocol: SymbolRow) -> set[str]:
    """The files of the classes (other than `protocol`) whose bodies declare every name of
    `members`."""
    by_class: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        if row.kind not in (FIELD_KIND, METHOD_KIND) or not row.path.endswith(_PYTHON):
            continue
        owner = row.fq_name.rpartition(".")[0]
        if owner != protocol.fq_name:
            by_class.setdefault((row.path, owner), set()).add(row.name)
    return {path for (path, _), declared in by_class.items() if members <= declared}
