"""The files that map a command to the function it runs, and that function's file: the answer
to `where is the CLI entry point` in a Python package, whose command is declared in its
manifest (setup.cfg's `[options.entry_points]` `console_scripts`, pyproject.toml's
`[project.scripts]` or `[tool.poetry.scripts]`, setup.py's `entry_points=`) and no file is
called main.py. QA on PyCQA/flake8: that question ranked plugins/finder.py (writing
`entry_point`) first and neither setup.cfg (`flake8 = flake8.main.cli:main`) nor, until
third, src/flake8/main/cli.py. A package.json with a `bin` counts as such a manifest too.
"""

from __future__ import annotations

import re
import sqlite3

from streams.stores.views.read import get_content, get_file

_MANIFESTS = ("pyproject.toml", "setup.cfg", "setup.py", "package.json")
# a command's target, `flake8.main.cli:main`
_TARGET = r"(?P<module>[A-Za-z_][\w.]*)\s*:\s*[A-Za-z_][\w.]*"
# pyproject.toml: `name = "module:func"` lines of a scripts table
_TOML_TABLE = re.compile(
    r"^\[(?:project\.(?:scripts|gui-scripts)|tool\.poetry\.scripts)\]\s*$(?P<body>.*?)(?=^\[|\Z)",
    re.M | re.S,
)
_TOML_LINE = re.compile(rf"""^\s*["']?[\w.-]+["']?\s*=\s*["']{_TARGET}["']""", re.M)
# setup.cfg: the indented lines below `console_scripts =` / `gui_scripts =`
_CFG_KEY = re.compile(
    r"^(?:console_scripts|gui_scripts)\s*=\s*\n(?P<body>(?:[ \t]+\S[^\n]*\n?|[ \t]*\n)*)", re.M
)
_CFG_LINE = re.compile(rf"^\s*[\w.-]+\s*=\s*{_TARGET}", re.M)
# setup.py: `entry_points={"console_scripts": ["flake8 = flake8.main.cli:main"]}`
_PY_SCRIPTS = re.compile(r"""["'](?:console_scripts|gui_scripts)["']\s*:\s*\[(?P<body>[^\]]*)""")
_PY_LINE = re.compile(rf"""["']\s*[\w.-]+\s*=\s*{_TARGET}\s*["']""")
_BIN = re.compile(r'"bin"\s*:\s*(?:"(?P<one>[^"]+)"|\{(?P<many>[^}]*)\})')
_BIN_PATH = re.compile(r'"\s*:\s*"(?P<path>[^"]+)"')
_SOURCE_ROOTS = ("", "src/", "lib/")
# a bin's script in a build's output folder, and the sources it may be built from
_BUILT = re.compile(r"^(?:dist|build|out|lib)/(?P<stem>[\w./-]+?)\.[cm]?js$")
_JS_SOURCES = (".ts", ".mts", ".cts", ".tsx", ".js", ".mjs")


def script_entries(conn: sqlite3.Connection, repo_id: str) -> list[str]:
    """The root manifests declaring commands, each followed by the indexed files of the
    functions or scripts its commands run (module doc)."""
    out: list[str] = []
    for manifest in _MANIFESTS:
        row = get_content(conn, repo_id, manifest)
        if row is None:
            continue
        targets = _targets(manifest, row.body)
        if targets is None:
            continue
        out.append(manifest)
        for target in targets:
            found = _indexed(conn, repo_id, target)
            if found is not None and found not in out:
                out.append(found)
    return out


def _targets(manifest: str, body: str) -> list[str] | None:
    """The repo paths (or `module.py` forms) the commands of `manifest` run; None when it
    declares none."""
    if manifest == "package.json":
        found = _BIN.search(body)
        if found is None:
            return None
        paths = [found["one"]] if found["one"] else _BIN_PATH.findall(found["many"] or "")
        return [p.removeprefix("./") for p in paths]
    if manifest == "pyproject.toml":
        bodies = [m["body"] for m in _TOML_TABLE.finditer(body)]
        line = _TOML_LINE
    elif manifest == "setup.cfg":
        bodies = [m["body"] for m in _CFG_KEY.finditer(body)]
        line = _CFG_LINE
    else:
        bodies = [m["body"] for m in _PY_SCRIPTS.finditer(body)]
        line = _PY_LINE
    modules = [m["module"] for b in bodies for m in line.finditer(b)]
    if not modules:
        return None
    return [m.replace(".", "/") + ".py" for m in dict.fromkeys(modules)]


def _indexed(conn: sqlite3.Connection, repo_id: str, target: str) -> str | None:
    """The indexed file `target` means: as written, below a source root, or a package's
    `__init__.py`; a bin's built script (`dist/cli-default.js`) the source it is built
    from (`src/cli-default.ts`: QA on egoist/tsup, whose dist/ is not in the repository)."""
    stem = target.removesuffix(".py")
    candidates = [f"{root}{target}" for root in _SOURCE_ROOTS]
    if target.endswith(".py"):
        candidates += [f"{root}{stem}/__init__.py" for root in _SOURCE_ROOTS]
    built = _BUILT.match(target)
    if built is not None:
        candidates += [f"src/{built['stem']}{ext}" for ext in _JS_SOURCES]
    for path in candidates:
        if get_file(conn, repo_id, path) is not None:
            return path
    return None
