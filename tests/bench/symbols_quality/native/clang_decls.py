"""clang's declarations of C and C++ files as JSON lines {path, name, line, class, kind}, from
libclang (PyPI `libclang`, installed under the benchmark's cache): run with it on PYTHONPATH,
`python clang_decls.py c|cpp ROOT < paths`.

Function bodies are skipped (what a function declares is local: the scope rule), and so are
variables' initializers; a member of an anonymous struct, union or enum is compared where
it is written (`union { int i; } u;` in a struct: `i`, as ctags reports it and as we nest it
under the field `u`). A prototype of a function the file defines is left
out, as we leave it out. The repository's include/, src/, test/ and test/gtest/ folders and
the file's own are on the include path, so its macros expand as the compiler sees them.
"""

from __future__ import annotations

import glob
import json
import sys
from pathlib import Path

from clang import cindex  # type: ignore[import-not-found]  # installed under the cache

K = cindex.CursorKind
TYPES = {
    K.STRUCT_DECL: "struct",
    K.UNION_DECL: "union",
    K.CLASS_DECL: "class",
    K.ENUM_DECL: "enum",
    K.CLASS_TEMPLATE: "class template",
    K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION: "partial specialization",
    K.TYPEDEF_DECL: "typedef",
    K.TYPE_ALIAS_DECL: "alias",
    K.TYPE_ALIAS_TEMPLATE_DECL: "alias template",
    K.NAMESPACE: "namespace",
}
FUNCTIONS = {
    K.FUNCTION_DECL: "function",
    K.CXX_METHOD: "method",
    K.CONSTRUCTOR: "constructor",
    K.DESTRUCTOR: "destructor",
    K.FUNCTION_TEMPLATE: "function template",
}
FIELDS = {K.FIELD_DECL: "field", K.ENUM_CONSTANT_DECL: "enumerator", K.VAR_DECL: "variable"}
RECORDS = {K.STRUCT_DECL, K.UNION_DECL, K.CLASS_DECL}
CONTAINERS = {*TYPES, K.LINKAGE_SPEC, K.UNEXPOSED_DECL}  # what may hold declarations


def _anonymous(cursor: cindex.Cursor) -> bool:
    return not cursor.spelling or "(unnamed" in cursor.spelling or "(anonymous" in cursor.spelling


def declarations(path: Path, language: str, includes: list[str]) -> list[dict[str, object]]:
    args = ["-x", "c++" if language == "cpp" else "c"]
    args += ["-std=c++20" if language == "cpp" else "-std=c11", *includes, f"-I{path.parent}"]
    unit = cindex.Index.create().parse(
        str(path), args=args, options=cindex.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
    )
    out: list[dict[str, object]] = []
    defined: set[str] = set()

    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()

    def emit(cursor: cindex.Cursor, kind_class: str, kind: str) -> None:
        line = cursor.location.line
        if not 0 < line <= len(lines) or cursor.spelling.split("<")[0] not in lines[line - 1]:
            return  # made by a macro (`FMT_BEGIN_NAMESPACE`'s namespaces), not written here
        name = cursor.spelling
        if "<" in name and not name.startswith("operator"):
            name = name.split("<")[0]  # `scanner<T, Char>`: a template's constructor
        out.append({"name": name, "line": line, "class": kind_class, "kind": kind})

    seen: set[int] = set()  # a typedef's anonymous record is its child and its sibling too

    def visit(parent: cindex.Cursor, in_record: bool) -> None:
        for cursor in parent.get_children():
            if cursor.location.file is None or Path(cursor.location.file.name) != path:
                continue
            if cursor.hash in seen:
                continue
            seen.add(cursor.hash)
            kind = cursor.kind
            if kind in TYPES:
                if _anonymous(cursor):  # `typedef struct {...} t;`, `union {...} u;`, `enum {A} m;`
                    visit(cursor, in_record or kind in RECORDS)
                    continue
                if kind in RECORDS | {K.ENUM_DECL} and not cursor.is_definition():
                    continue  # `struct node;`: a forward declaration
                emit(cursor, "type", TYPES[kind])
                visit(cursor, kind in RECORDS or kind == K.CLASS_TEMPLATE)
            elif kind in FUNCTIONS:
                if cursor.is_definition():
                    defined.add(cursor.spelling)
                emit(
                    cursor,
                    "function",
                    FUNCTIONS[kind] + ("" if cursor.is_definition() else " decl"),
                )
            elif kind in FIELDS:
                emit(cursor, "field", FIELDS[kind])
                if kind == K.ENUM_CONSTANT_DECL:
                    continue
            elif kind in CONTAINERS:
                visit(cursor, in_record)

    visit(unit.cursor, False)
    return [d for d in out if not (str(d["kind"]).endswith(" decl") and d["name"] in defined)]


def main() -> None:
    language, root = sys.argv[1], Path(sys.argv[2]).resolve()
    # a vendored googletest (fmt's test/gtest) too: without it gmock's `MOCK_METHOD(T*,
    # allocate, (size_t))` is not expanded and clang reads a method named MOCK_METHOD
    folders = ("include", "src", "test", "test/gtest")
    includes = [f"-I{root / d}" for d in folders if (root / d).is_dir()]
    # the wheel ships libclang without clang's own headers (stddef.h): GCC's stand in
    includes += [f"-isystem{p}" for p in sorted(glob.glob("/usr/lib/gcc/*/*/include"))[-1:]]
    for raw in sys.stdin.read().split():
        for decl in declarations(root / raw, language, includes):
            print(json.dumps({"path": raw, **decl}))


if __name__ == "__main__":
    main()
