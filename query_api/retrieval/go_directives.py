"""A question about the Go version a module builds with points go.mod at its `go` directive.

go.mod writes its settings as directives (`go 1.24.0`, `toolchain go1.24.2`), not as `key =`
lines or sections, so config_sections found no line for `what Go version does the module
require` and the hit kept the lines holding its other words: QA on spf13/afero pointed go.mod
at `module github.com/spf13/afero` and `require golang.org/x/text`, not at `go 1.24.0`.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

GO_LIST = "go"  # the manifest list path_roles.manifest_list names for a Go version question
# the `go` directive and the `toolchain` one that may follow it
_DIRECTIVE = re.compile(r"^\s*(go|toolchain)\s+\S")


def directive_naming(
    path: str, lines: Sequence[str], subject: Collection[str]
) -> tuple[int, int] | None:
    """The first and last line (1-based) of a go.mod's `go` directive, with a `toolchain`
    directive written right after it, when `subject` asks for the Go version; None for
    another file or question, or a go.mod declaring no version."""
    if GO_LIST not in subject or path.rpartition("/")[2] != "go.mod":
        return None
    start = next(
        (n for n, line in enumerate(lines, 1) if (d := _DIRECTIVE.match(line)) and d[1] == "go"),
        None,
    )
    if start is None:
        return None
    end = start
    while end < len(lines) and (
        not lines[end].strip() or ((d := _DIRECTIVE.match(lines[end])) and d[1] == "toolchain")
    ):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return start, end
