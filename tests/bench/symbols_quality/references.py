"""The independent extractors: universal-ctags for every language, Python's `ast` for Python.

Every declaration becomes a Tag (name, 1-based start line, kind class). Kind classes are what
both sides can be compared on: `type` (classes, structs, interfaces, enums, type aliases,
namespaces/modules where both sides report them), `function` (functions, methods,
constructors, prototypes) and `field` (fields, properties, enum members, module-level
variables and constants). A ctags kind mapped to None, or not listed, is one we do not extract
at all (imports, macros, Ruby accessors, Rust impl blocks) and counts on neither side.

Only declarations that no declared function, method or variable contains are compared (what
those declare inside is local: reported by some tools and not others, and not what an agent
looks up by name); anonymous functions are transparent (a test callback's `function App()`
counts). ctags' TypeScript/JavaScript parsers lose scopes, so there an indented variable
without a scope is taken for a local.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from processors.symbols.declaration import operator_name
from tests.bench.symbols_quality.ctags_rules import (
    defined_prototypes_dropped,
    local_scopes,
    parameter_types,
)

INSTALL_SCRIPT = "tests/bench/symbols_quality/install_ctags.sh"

TYPE, FUNCTION, FIELD = "type", "function", "field"
CLASSES = (TYPE, FUNCTION, FIELD)


@dataclass(frozen=True)
class Tag:
    name: str
    line: int
    kind_class: str
    kind: str  # the tool's own kind, for the report


# the benchmark's language -> ctags' parser name
CTAGS_LANGUAGE = {
    "python": "Python",
    "typescript": "TypeScript",
    "tsx": "TypeScript",
    "javascript": "JavaScript",
    "go": "Go",
    "java": "Java",
    "csharp": "C#",
    "rust": "Rust",
    "c": "C",
    "cpp": "C++",
    "ruby": "Ruby",
    "php": "PHP",
    "kotlin": "Kotlin",
}

_T, _F, _D = TYPE, FUNCTION, FIELD
CTAGS_KINDS: dict[str, dict[str, str]] = {
    "Python": {"class": _T, "function": _F, "member": _F, "variable": _D},
    "TypeScript": {
        "class": _T,
        "interface": _T,
        "enum": _T,
        "alias": _T,
        "namespace": _T,
        "function": _F,
        "method": _F,
        "generator": _F,
        "property": _D,
        "enumerator": _D,
        "variable": _D,
        "constant": _D,
    },
    "JavaScript": {
        "class": _T,
        "function": _F,
        "method": _F,
        "generator": _F,
        "getter": _F,
        "setter": _F,
        "field": _D,
        "property": _D,
        "variable": _D,
        "constant": _D,
    },
    "Go": {
        "struct": _T,
        "interface": _T,
        "type": _T,
        "talias": _T,
        "func": _F,
        "methodSpec": _F,
        "member": _D,
        "const": _D,
        "var": _D,
    },
    "Java": {
        "class": _T,
        "interface": _T,
        "enum": _T,
        "annotation": _T,
        "method": _F,
        "field": _D,
        "enumConstant": _D,
    },
    "C#": {
        "class": _T,
        "interface": _T,
        "enum": _T,
        "struct": _T,
        "namespace": _T,
        "method": _F,
        "field": _D,
        "property": _D,
        "enumerator": _D,
        "event": _D,
    },
    "Rust": {
        "struct": _T,
        "enum": _T,
        "interface": _T,
        "typedef": _T,
        "module": _T,
        "function": _F,
        "method": _F,
        "field": _D,
        "enumerator": _D,
        "variable": _D,
    },
    "C": {
        "struct": _T,
        "union": _T,
        "enum": _T,
        "typedef": _T,
        "function": _F,
        "prototype": _F,
        "member": _D,
        "enumerator": _D,
        "variable": _D,
        "externvar": _D,
    },
    "C++": {
        "class": _T,
        "struct": _T,
        "union": _T,
        "enum": _T,
        "typedef": _T,
        "namespace": _T,
        "alias": _T,
        "function": _F,
        "prototype": _F,
        "member": _D,
        "enumerator": _D,
        "variable": _D,
        "externvar": _D,
    },
    "Ruby": {"class": _T, "module": _T, "method": _F, "singletonMethod": _F, "constant": _D},
    "PHP": {
        "class": _T,
        "interface": _T,
        "trait": _T,
        "function": _F,
        "variable": _D,
        "define": _D,
    },
    "Kotlin": {
        "class": _T,
        "interface": _T,
        "object": _T,
        "typealias": _T,
        "method": _F,
        "constant": _D,
        "variable": _D,
    },
}

# languages whose ctags parser reports namespaces/modules as we do (else ours are not compared)
NAMESPACE_LANGUAGES = frozenset({"typescript", "tsx", "csharp", "rust", "cpp", "ruby"})
# ctags' names for what has no name of its own (Kotlin's: a lambda, `init { require(x) { } }`)
_ANONYMOUS = ("__anon", "AnonymousFunction", "anonymousObject", "<lambda>")


def _unscoped_local(parser: str, tag: dict[str, str]) -> bool:
    """ctags' TypeScript/JavaScript parsers lose the scope inside anonymous callbacks (a
    test's `it("...", () => { const app = ... })`): a variable written indented and without
    a scope is such a local (top-level code is not indented)."""
    return (
        parser in ("TypeScript", "JavaScript")
        and "scope" not in tag
        and tag.get("kind") in ("variable", "constant", "property")
        and tag.get("pattern", "/^x")[2:3] in (" ", "\t")
    )


_PHP_PROPERTY = re.compile(r"/\^\s*(?:public|private|protected|var|static|readonly)\b")


def _php_method_local(parser: str, tag: dict[str, str]) -> bool:
    """ctags' PHP parser gives a method's local variables the class as their scope (Slim's
    `$callable = ...` in CallableResolver's methods); a property is declared with a
    modifier (`private $next;`), a local is not."""
    return (
        parser == "PHP"
        and tag.get("kind") == "variable"
        and tag.get("scopeKind") in ("class", "trait", "interface")
        and not _PHP_PROPERTY.match(tag.get("pattern", ""))
    )


def ctags_missing() -> str | None:
    """Why ctags cannot run here, or None."""
    exe = shutil.which("ctags")
    if exe is None:
        return f"universal-ctags is not installed: run `sudo sh {INSTALL_SCRIPT}`"
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    if "Universal Ctags" not in version:
        return f"`ctags` is not universal-ctags ({version.splitlines()[:1]}): run {INSTALL_SCRIPT}"
    return None


def ctags_version() -> str:
    out = subprocess.run(["ctags", "--version"], capture_output=True, text=True).stdout
    return out.splitlines()[0] if out else "?"


def run_ctags(root: Path, paths: list[str], language: str) -> dict[str, list[Tag]]:
    """ctags' declarations of `paths` (relative to `root`), parsed as `language`."""
    parser = CTAGS_LANGUAGE[language]
    kinds = CTAGS_KINDS[parser]
    command = [
        "ctags",
        "--output-format=json",
        "--fields=+nKZS",
        f"--language-force={parser}",
        "-f",
        "-",
        "-L",
        "-",
    ]
    if parser in ("C", "C++"):
        # prototypes and extern variable declarations: we report them too
        command.insert(1, f"--kinds-{parser}=+px")
    done = subprocess.run(
        command, cwd=root, input="\n".join(paths), capture_output=True, text=True, check=False
    )
    out: dict[str, list[Tag]] = {path: [] for path in paths}
    # C/C++: each tag's (scope, name, parameter types), which tells a prototype its
    # file defines from an overload it only declares
    heads: dict[str, list[tuple[Tag, tuple[str, str, str]]]] = {path: [] for path in paths}
    tags = []
    for line in done.stdout.splitlines():
        try:
            tags.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    local = local_scopes(tags, kinds)
    for tag in tags:
        kind = tag.get("kind", "")
        kind_class = kinds.get(kind)
        name = tag.get("name", "")
        if kind_class is None or name.startswith(_ANONYMOUS) or tag.get("path") not in out:
            continue
        if (tag["path"], tag.get("scope", ""), tag.get("scopeKind", "")) in local:
            continue  # a local, or an object literal's property: not a declaration we compare
        if _unscoped_local(parser, tag) or _php_method_local(parser, tag):
            continue
        if name.startswith("operator") and " " in name:
            name = operator_name(name)  # `operator <<`: we write `operator<<`
        if parser == "C#" and "." in name:
            name = name.rpartition(".")[2]  # `IEnumerable.GetEnumerator`: we write the member's
        found = Tag(name, int(tag.get("line", 0)), kind_class, kind)
        out[tag["path"]].append(found)
        scope = tag.get("scope", "")
        heads[tag["path"]].append((found, (scope, name, parameter_types(tag.get("signature")))))
    if parser in ("C", "C++"):
        return {path: defined_prototypes_dropped(tags) for path, tags in heads.items()}
    return out


# what a module-level assignment may stand in and still bind the module's name (`if
# TYPE_CHECKING:`, `try: import x` / `except ImportError: x = None`, `with`); not a loop
_MODULE_BLOCKS = (ast.If, ast.Try, ast.TryStar, ast.ExceptHandler, ast.With, ast.AsyncWith)


def python_ast(body: str) -> list[Tag] | None:
    """Python's own parser: classes and functions outside function bodies, class- and
    module-level simple-name assignments (module level: in conditional, `try` and `with`
    blocks too); None when the file does not parse."""
    try:
        tree = ast.parse(body)
    except (SyntaxError, ValueError):
        return None
    tags: list[Tag] = []

    def assigned(stmt: ast.stmt) -> list[ast.Name]:
        if isinstance(stmt, ast.Assign):  # `a = b = 1`, and each name of `a, b = f()`
            names = [t for t in stmt.targets if isinstance(t, ast.Name)]
            for target in stmt.targets:
                if isinstance(target, ast.Tuple):
                    names += [e for e in target.elts if isinstance(e, ast.Name)]
            return names
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            return [stmt.target]
        return []

    def visit(node: ast.AST, in_body: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                tags.append(Tag(child.name, child.lineno, TYPE, "class"))
                for stmt in child.body:
                    for target in assigned(stmt):
                        tags.append(Tag(target.id, stmt.lineno, FIELD, "class variable"))
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                tags.append(Tag(child.name, child.lineno, FUNCTION, "def"))
                continue  # what a function declares inside is local: not compared
            elif in_body and isinstance(child, ast.stmt):
                for target in assigned(child):
                    tags.append(Tag(target.id, child.lineno, FIELD, "module variable"))
            visit(child, in_body and isinstance(child, _MODULE_BLOCKS))

    visit(tree, True)
    return tags
