"""Why ctags misses the C# declarations we report, shown by experiment rather than read off:
each file with extras is rewritten one C# construct at a time (the same lines kept), ctags
runs again after each step, and an extra is put down to the first rewrite after which ctags
reports its name on its line (or within its head: attributes come first). What no rewrite
explains is listed line by line.

    python -m tests.bench.symbols_quality run --language csharp --worst-against ctags --json F
    python -m tests.bench.symbols_quality.csharp_causes F
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bench.symbols_quality.corpus import PINS, checkout
from tests.bench.symbols_quality.references import CTAGS_KINDS

HEAD = 12  # lines: our start line includes attributes written before the name
_NULLABLE = re.compile(r"(?<=[\w>\]])\?(?=[\s,)\]>])")  # `object? value`, `string?[]`
_CONSTRAINT = re.compile(r"\bwhere\s+\w+\s*:[^{;=]*?(?=\s*(?:\{|=>|;|$))", re.M)
_EXPRESSION_BODY = re.compile(r"^(.*\))\s*=>\s*(.*);\s*$", re.M)
_PRIMARY_CONSTRUCTOR = re.compile(
    r"^(\s*(?:\w+\s+)*(?:class|struct|record(?:\s+struct)?)\s+\w+(?:<[^>]*>)?)\([^)]*\)", re.M
)
_BODILESS_CLASS = re.compile(r"^(\s*(?:\w+\s+)*class\s+\w+[^;{(\n]*);", re.M)


def _blanked(found: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", found.group(0))


def _without_parameters(found: re.Match[str]) -> str:
    return found.group(1) + " " * (len(found.group(0)) - len(found.group(1)))


# each rewrite keeps every line where it was; applied one after another
REWRITES: list[tuple[str, Callable[[str], str]]] = [
    ("nullable annotation (`object? value`)", lambda t: _NULLABLE.sub(" ", t)),
    ("generic constraint (`where T : I, new()`)", lambda t: _CONSTRAINT.sub(_blanked, t)),
    (
        "expression-bodied member (`=> this;`)",
        lambda t: _EXPRESSION_BODY.sub(r"\1 { return \2; }", t),
    ),
    (
        "primary constructor (`class X(Func<...> f) : I`)",
        lambda t: _PRIMARY_CONSTRUCTOR.sub(_without_parameters, t),
    ),
    ("verbatim identifier (`@event`)", lambda t: re.sub(r"@(?=[A-Za-z_])", "_", t)),
    ("class without a body (`class Empty;`)", lambda t: _BODILESS_CLASS.sub(r"\1{}", t)),
]
_CTAGS = ("ctags", "--output-format=json", "--fields=+n", "--language-force=C#", "-f", "-")
AS_IS = "ctags reports it as it is, near that line (within our declaration's head)"


def ctags_names(text: str) -> list[tuple[str, int, str | None]]:
    """(name, line, kind class) of every tag ctags' C# parser finds in `text`."""
    with tempfile.NamedTemporaryFile("w", suffix=".cs") as source:
        source.write(text)
        source.flush()
        out = subprocess.run(
            [*_CTAGS, source.name],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    tags = (json.loads(line) for line in out.splitlines())
    kinds = CTAGS_KINDS["C#"]
    return [
        (t["name"].rpartition(".")[2], t["line"], kinds.get(t.get("kind", "")))
        for t in tags
        if t.get("_type") == "tag"
    ]


def _each_cause(
    per_file: list[dict[str, Any]], cache: Path
) -> list[tuple[str, str, int, str | None, str]]:
    """(file key, name, line, cause or None, source line) of each C# extra."""
    roots = {pin.repo: checkout(pin, cache) for pin in PINS if pin.repo == "serilog/serilog"}
    out: list[tuple[str, str, int, str | None, str]] = []
    for result in per_file:
        repo, _, path = result["file"].partition(":")
        if result["language"] != "csharp" or not result["extra"] or repo not in roots:
            continue
        text = (roots[repo] / path).read_text(encoding="utf-8")
        versions = [(AS_IS, text)]
        for step, rewrite in REWRITES:
            versions.append((step, rewrite(versions[-1][1])))
        found = [(step, ctags_names(version)) for step, version in versions]
        lines = text.split("\n")
        for extra in result["extra"]:
            name, line, kind_class = extra["name"], extra["line"], extra.get("kind_class")
            # the name there, of our kind class: a primary constructor's class that ctags
            # reports as a method is explained by the rewrite that makes it a class
            cause = next(
                (
                    w
                    for w, tags in found
                    if any(
                        n == name and line <= at <= line + HEAD and kind_class in (None, c)
                        for n, at, c in tags
                    )
                ),
                None,
            )
            out.append((result["file"], name, line, cause, lines[line - 1].strip()[:100]))
    return out


def causes(per_file: list[dict[str, Any]], cache: Path) -> tuple[Counter[str], list[str]]:
    """The count of extras per cause, and the unexplained ones (file:line name | source)."""
    counted: Counter[str] = Counter()
    unexplained: list[str] = []
    for key, name, line, cause, source in _each_cause(per_file, cache):
        if cause is None:
            unexplained.append(f"{key.partition(':')[2]}:{line} {name} | {source}")
        else:
            counted[cause] += 1
    return counted, unexplained


def proven(per_file: list[dict[str, Any]], cache: Path) -> set[tuple[str, str, int]]:
    """(file key, name, line) of the extras a rewrite shows ctags misses (not those ctags
    reports as it is, under another kind: that is a difference of kind, not proven here)."""
    return {
        (key, name, line)
        for key, name, line, cause, _source in _each_cause(per_file, cache)
        if cause is not None and cause != AS_IS
    }


def spurious(per_file: list[dict[str, Any]], cache: Path) -> set[tuple[str, str, int]]:
    """(file key, name, line) of ctags' tags we lack (`missed`) that ctags no longer reports
    once every construct above is rewritten: what it made of a construct it misreads (a
    parameter or a constraint's type taken for a field)."""
    roots = {pin.repo: checkout(pin, cache) for pin in PINS if pin.repo == "serilog/serilog"}
    out: set[tuple[str, str, int]] = set()
    for result in per_file:
        repo, _, path = result["file"].partition(":")
        if result["language"] != "csharp" or not result["missed"] or repo not in roots:
            continue
        text = (roots[repo] / path).read_text(encoding="utf-8")
        for _step, rewrite in REWRITES:
            text = rewrite(text)
        after = {(name, line) for name, line, _kind_class in ctags_names(text)}
        out |= {
            (result["file"], t["name"], t["line"])
            for t in result["missed"]
            if (t["name"], t["line"]) not in after
        }
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    per_file = json.loads(Path(argv[0]).read_text())
    counted, unexplained = causes(per_file, Path("/tmp/repocontext-symbols-quality"))
    print(f"{sum(counted.values()) + len(unexplained)} C# extras against ctags")
    for why, count in counted.most_common():
        print(f"{count:4} {why}")
    print(f"{len(unexplained):4} no rewrite explains:")
    print("\n".join(f"     {line}" for line in unexplained))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
