"""One exception root (schemas/errors.py): every exception class the project defines derives
from `RepoContextError`, except the few that only carry control flow inside their module (or
are a filesystem condition callers handle as `OSError`). Found by reading the source, so a new
exception class cannot be missed."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from schemas.errors import RepoContextError

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("schemas", "processors", "streams", "query_api", "repocontext")
BUILTIN_BASES = {"Exception", "RuntimeError", "ValueError", "OSError", "KeyError", "LookupError"}
# (module, class): caught in the module that raises it, never seen by a caller
PRIVATE = {
    ("streams.stores.views.lexical_mirror", "MirrorClosed"),
    ("streams.vectors_step", "EmbedFailed"),
    ("query_api.server.admission", "BodyRefused"),
    ("query_api.evaluation.history", "RungUnavailable"),
    ("query_api.retrieval.ladder", "_Fault"),
    ("streams.sources.safe_open", "NotRegularFile"),  # an OSError, handled as one
}


def exception_classes() -> list[tuple[str, str]]:
    """(module, class) of each class whose bases name an exception."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ClassDef):
                    continue
                names = {
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases
                }
                if names & BUILTIN_BASES or any(n.endswith(("Error", "Exception")) for n in names):
                    found.append((module, node.name))
    return found


def test_every_exception_derives_from_the_one_root() -> None:
    classes = exception_classes()
    assert len(classes) >= 20  # the layer roots and their kinds, at least
    outside = []
    for module, name in classes:
        cls = getattr(importlib.import_module(module), name)
        if (module, name) not in PRIVATE and not issubclass(cls, RepoContextError):
            outside.append(f"{module}.{name}")
    assert outside == []
    assert set(PRIVATE) <= set(classes)  # the exemption list names only what exists


def test_the_layer_roots_share_it() -> None:
    from processors.errors import ProcessorError
    from query_api.errors import QueryApiError
    from schemas.errors import SchemaError
    from streams.errors import StreamsError

    for root in (SchemaError, ProcessorError, StreamsError, QueryApiError):
        assert root.__mro__[1] is RepoContextError
