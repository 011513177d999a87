"""A search for the importers of a module or file points each file hit at its import of it.

`who imports tracing` and `what imports src/drivers/utils/index.ts` rank the importers first
(users_first), but a TypeScript, JavaScript or Go file names what it imports in a string
(`import { withTracing } from "../src/tracing.ts"`), which is no use of a name: the hit kept
the lines holding the query's words. QA on unjs/unstorage: `who imports tracing` pointed
test/tracing.test.ts at its first three imports, of vitest and node:diagnostics_channel, and
`who imports utils` pointed vercel-blob.ts at `lib?: LibImport<typeof import("@vercel/blob")>`.
The import statement whose specifier ends with the module (its file's stem, an index file's
folder) is the hit's: from its first line to the specifier's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from query_api.retrieval.hit_details import LINE_CHARS
from query_api.retrieval.line_preference import import_lines, is_import
from schemas import tools as t

# the extensions a specifier or a path may end with, left out of a module's name
_EXTENSION = re.compile(r"\.(?:[cm]?[jt]sx?|d\.ts|py|pyi|rs|go)$", re.IGNORECASE)
_SPECIFIER = re.compile(r"""["'`]([^"'`\n]+)["'`]""")


def module_tail(written: str) -> str:
    """The last part of the module a path or name writes, casefolded, as an importer's
    specifier ends: `src/drivers/utils/index.ts` -> utils, `tracing.ts` -> tracing,
    `jinja2.sandbox` -> sandbox."""
    path = _EXTENSION.sub("", written.replace("\\", "/").strip().rstrip("/"))
    if path.endswith("/index"):
        path = path[: -len("/index")]
    last = path.rpartition("/")[2]
    if "/" not in path and "." in last:  # a dotted module name
        last = last.rpartition(".")[2]
    return last.casefold()


# a Python import: `from .utils import a, b`, `from . import utils as u`, `import a.b as c`
_PY_FROM = re.compile(r"^\s*from\s+([.\w]+)\s+import\s+(.*)$")
_PY_IMPORT = re.compile(
    r"^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*(?:#.*)?$"
)
_PY_NAME = re.compile(r"([\w.]+)(?:\s+as\s+\w+)?")


def python_modules(line: str) -> list[str]:
    """The modules a Python import line may name, dotted as written: `from .sansio.utils
    import x` -> .sansio.utils and .sansio.utils.x (a name it imports may be a module),
    `from . import utils` -> . and .utils, `import a.b as c, d` -> a.b and d."""
    found = _PY_FROM.match(line)
    if found is not None:
        module = found.group(1)
        names = found.group(2).split("#")[0].strip(" ()\\").split(",")
        joined = module if module.endswith(".") else module + "."
        return [module, *(joined + m.group(1) for m in map(_PY_NAME.match, names) if m)]
    found = _PY_IMPORT.match(line)
    if found is None:
        return []
    return [m.group(1) for m in map(_PY_NAME.match, found.group(1).split(",")) if m]


def module_path(written: str) -> str:
    """The module a path or name writes, casefolded, as slash-separated segments without
    the extension: `sansio/utils.py` -> sansio/utils, `jinja2.sandbox` -> jinja2/sandbox."""
    path = _EXTENSION.sub("", written.replace("\\", "/").strip().strip("/")).casefold()
    if "/" not in path:
        path = path.replace(".", "/")
    return path.removesuffix("/__init__").removesuffix("/index")


def _python_target(module: str, importer: str) -> str:
    """The path (casefolded, no extension) a Python module names, a relative one (`..utils`)
    resolved from the importing file's folder."""
    rest = module.lstrip(".")
    dots = len(module) - len(rest)
    base = ""
    if dots:
        folders = importer.casefold().split("/")[:-1]
        base = "/".join(folders[: max(0, len(folders) - dots + 1)])
    return "/".join(p for p in (base, rest.replace(".", "/").casefold()) if p)


def _same_module(target: str, wanted: str) -> bool:
    return bool(target) and (
        target == wanted or target.endswith("/" + wanted) or wanted.endswith("/" + target)
    )


def import_site(
    lines: Sequence[str], tail: str, importer: str = "", wanted: str = ""
) -> tuple[int, int] | None:
    """The first and last line of the file's first import statement whose quoted specifier
    ends with the module `tail` names (module_tail), or a Python import's first line naming
    that module (python_modules): with the `importer`'s path and the module's as `wanted`
    (module_path), the one a relative import resolves to (QA on pallets/werkzeug: in
    sansio/request.py `from ..utils import` is werkzeug/utils.py, `from .utils import`
    sansio/utils.py), else by its last part; else None."""
    imported = import_lines(lines)
    for n in sorted(imported):
        modules = python_modules(lines[n - 1])
        if importer and "/" in wanted:
            if any(_same_module(_python_target(m.strip(), importer), wanted) for m in modules):
                return n, n
        elif any(module_tail(m.strip()) == tail for m in modules):
            return n, n
        for specifier in _SPECIFIER.findall(lines[n - 1]):
            if module_tail(specifier) == tail:
                start = n
                while start > 1 and not is_import(lines[start - 1]) and start - 1 in imported:
                    start -= 1
                return start, n
    return None


def at_import_site(
    hit: t.SearchHit, lines: Sequence[str], tail: str, wanted: str = ""
) -> t.SearchHit:
    """`hit` pointed at its import of the module `tail` names (`wanted`, its module_path,
    when the query writes more of it), when it has one."""
    site = import_site(lines, tail, hit.entry.path or "", wanted)
    if site is None:
        return hit
    lo, hi = site
    shown = sorted({lo, hi})
    snippet = "\n".join(f"{n}: {_cut(lines[n - 1].strip())}" for n in shown)
    return hit.model_copy(update={"startLine": lo, "endLine": hi, "snippet": snippet})


def _cut(text: str) -> str:
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
