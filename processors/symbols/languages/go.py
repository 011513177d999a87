"""Go: how the extractor reads an import spec (go.scm's `@import`, `@import.alias`).

A Go import path is a slash-separated string (`github.com/gin-gonic/gin/internal/bytesconv`)
whose elements may hold dots themselves (`github.com`, `gopkg.in/yaml.v3`), so the dotted form
the extractor qualifies references with cannot be turned back into it: the file's import
entry (what related.imports lists) keeps the path as written, and the local name is bound to
the dotted path, so that `bytesconv.StringToBytes` is still qualified as
`github.com.gin-gonic.gin.internal.bytesconv.StringToBytes` (what the dependents resolver
matches against the declaration `bytesconv.StringToBytes`).

The local name of an import without an alias is the package's name, which only the imported
package's own clause says; by the Go convention it is the path's last element, without a
major-version element (`validator` for `github.com/go-playground/validator/v10`, not `v10`)
or suffix (`yaml` for `gopkg.in/yaml.v3`) and without a `go-` prefix or `-go` suffix
(`isatty` for `github.com/mattn/go-isatty`). A name bound wrongly would qualify another
package's call (`validator.New()`) as nothing imported, and the resolver would take it for the
repository's own `New`. A blank (`_`) or dot (`.`) import binds no name.

A name selected from anything but an import (`c.Params`, `x.v.New()`, `r.Render(w)`) is a
member of a value: Go never names a package-level declaration that way, and no file names a
member bare, so such a reference is not kept (member_selection). Kept, it reached the resolver
as a bare `New` or `Render`, which it matches by simple name against the package's own
declarations. A name selected from an import and read as a value, not called (`features.Finder`,
`viper.RemoteConfig = x`), is a reference to that package's declaration (imported_member).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from processors.symbols.declaration import Captures, Found, Slicer, clean_name
from processors.symbols.languages.base import LanguageRules
from processors.symbols.languages.go_locals import package_reads
from processors.symbols.signatures import _node_text

_MAJOR_VERSION = re.compile(r"v[0-9]+")
_VERSION_SUFFIX = re.compile(r"\.v[0-9]+$")
_BINDS_NOTHING = frozenset({"_", "."})


def package_name(path: str) -> str:
    """The name an import of `path` binds without an alias, by the Go convention."""
    parts = [p for p in path.split("/") if p]
    if not parts:
        return path
    name = parts[-1]
    if len(parts) > 1 and _MAJOR_VERSION.fullmatch(name):
        name = parts[-2]
    name = _VERSION_SUFFIX.sub("", name)
    return name.removeprefix("go-").removesuffix("-go") or name


EMBED_PREFIX = "go:embed "  # an import entry naming files a `//go:embed` directive embeds
_EMBED_PATTERN = re.compile(r'"((?:[^"\\]|\\.)*)"|`([^`]*)`|(\S+)')
MAX_EMBED_PATTERNS = 32  # one directive's patterns; more is generated code


def read_imports(found: Found, text: Slicer, caps: Captures, directory: str) -> None:
    """One import spec: its path as written, the local name bound to its dotted form
    (LanguageRules.read_imports); or a `//go:embed` directive (read_embeds)."""
    if "import.embed" in caps:
        found.imports.extend(read_embeds(_node_text(text, caps["import.embed"][0]), directory))
    if "import" not in caps:
        return
    literal = _node_text(text, caps["import"][0])
    written = literal.strip().strip('"`')
    dotted = clean_name(literal, "/")
    if not written or not dotted:
        return
    found.imports.append(written)
    alias = caps.get("import.alias")
    local = _node_text(text, alias[0]) if alias else package_name(written)
    if local not in _BINDS_NOTHING:
        found.aliases[local] = dotted


def read_embeds(directive: str, directory: str) -> list[str]:
    """The import entries of a `//go:embed templates/*.html "a b.txt" all:static` directive:
    each pattern as the repository path it names (`go:embed web/templates/*.html`; `all:`
    kept), so a template's dependents are the Go files embedding it. Go refuses patterns
    with `.` or `..` elements or a leading `/`, and so do we."""
    out: list[str] = []
    for found in _EMBED_PATTERN.finditer(directive.removeprefix("//go:embed")):
        written = next(g for g in found.groups() if g is not None)
        every = written.startswith("all:")
        pattern = written.removeprefix("all:")
        parts = pattern.split("/")
        if not pattern or pattern.startswith("/") or {".", ".."} & set(parts) or "" in parts:
            continue
        joined = f"{directory}/{pattern}" if directory else pattern
        out.append(EMBED_PREFIX + ("all:" if every else "") + joined)
        if len(out) >= MAX_EMBED_PATTERNS:
            break
    return out


_SELECTIONS = frozenset({"selector_expression", "qualified_type"})
_DOT = ord(".")


def member_selection(node: Node, src: bytes, aliases: dict[str, str]) -> bool:
    """Whether the reference `node` is the name selected from a value, not from an import
    (LanguageRules.member_selection)."""
    start = node.start_byte
    if not start or src[start - 1] != _DOT:  # the common case: no `x.` just before it
        return False
    parent = node.parent
    operand = node.prev_named_sibling
    if parent is None or parent.type not in _SELECTIONS or operand is None:
        return False
    if operand.type not in _NAME_TYPES:
        return True  # `x.v.New()`, `f().New()`: selected from a value
    return src[operand.start_byte : operand.end_byte].decode("utf-8", "replace") not in aliases


_NAME_TYPES = frozenset({"identifier", "package_identifier"})


def imported_member(node: Node, src: bytes, aliases: dict[str, str]) -> bool:
    """Whether the name `node` (go.scm's `@ref.value`: the field of `x.Name`) is a
    package-level declaration read through an import as a value: `features.Finder`,
    `viper.RemoteConfig = ...`. The operand must be an import's local name (`v.name` selects
    a member of a value); a call is `@ref.call` already."""
    if src[node.end_byte : node.end_byte + 1] == b"(":
        return False
    operand = node.prev_named_sibling
    if operand is None or operand.type != "identifier":
        return False
    return src[operand.start_byte : operand.end_byte].decode("utf-8", "replace") in aliases


RULES = {
    "go": LanguageRules(
        read_imports=read_imports,
        member_selection=member_selection,
        imported_member=imported_member,
        package_reads=package_reads,
    )
}
