"""Which differences with ctags are ctags' own errors, shown rather than argued: the report
prints each ctags row's precision and recall as measured and with those set aside.

- Where the language's own parser is a second reference (Python's `ast`, tsc, go/ast, javac,
  clang, syn), it settles each difference: one of our declarations that ctags lacks and the
  own parser reports at that line (it matched ours) is ctags' miss; one of ctags' tags we
  lack that the own parser does not report at that line, under that name and kind class, is
  ctags' extra (an object literal ctags calls a class, which tsc and we call a variable).
- C# has no second parser here: csharp_causes rewrites each file one construct at a time
  (every line kept where it was) and counts one of our declarations ctags lacks as ctags'
  miss when ctags reports it, at that line, once a construct it cannot read is rewritten,
  and one of ctags' tags we lack as ctags' extra when it is gone once every such construct
  is rewritten (a parameter of an expression-bodied member taken for a field).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.bench.symbols_quality import csharp_causes
from tests.bench.symbols_quality.compare import Counts, FileResult
from tests.bench.symbols_quality.references import CLASSES, Tag

REWRITES = "rewriting (csharp_causes)"


@dataclass
class Settled:
    """Per kind class: our declarations ctags lacks that are proven there (`extra`), and
    ctags' tags proven to declare nothing (`missed`)."""

    by: str
    extra: Counter[str] = field(default_factory=Counter)
    missed: Counter[str] = field(default_factory=Counter)


def by_second_reference(
    settled: Settled, against_ctags: FileResult, against_own: FileResult, own: list[Tag]
) -> None:
    """Adds one file's differences with ctags that the own parser settles."""
    unproven = Counter((t.name, t.line, t.kind_class) for t in against_own.extra)
    for tag in against_ctags.extra:
        key = (tag.name, tag.line, tag.kind_class)
        if unproven[key]:
            unproven[key] -= 1  # the own parser does not report it either
        else:
            settled.extra[tag.kind_class] += 1
    declared = {(t.name, t.line, t.kind_class) for t in own}
    for tag in against_ctags.missed:
        if (tag.name, tag.line, tag.kind_class) not in declared:
            settled.missed[tag.kind_class] += 1


def by_rewriting(settled: Settled, against_ctags: list[FileResult], cache: Path) -> None:
    """Adds the C# differences with ctags that rewriting proves ctags' own: our declarations
    it reports once a construct it cannot read is rewritten, and its tags that are gone
    once every such construct is."""
    per_file: list[dict[str, Any]] = [
        {
            "file": r.key,
            "language": r.language,
            "extra": [t.__dict__ for t in r.extra],
            "missed": [t.__dict__ for t in r.missed],
        }
        for r in against_ctags
        if r.extra or r.missed
    ]
    proven = csharp_causes.proven(per_file, cache)
    gone = csharp_causes.spurious(per_file, cache)
    for result in against_ctags:
        for tag in result.extra:
            if (result.key, tag.name, tag.line) in proven:
                settled.extra[tag.kind_class] += 1
        for tag in result.missed:
            if (result.key, tag.name, tag.line) in gone:
                settled.missed[tag.kind_class] += 1


def _ratio(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.3f}"


def table(rows: dict[str, tuple[dict[str, Counts], Settled]]) -> list[str]:
    """The ctags rows as measured and with ctags' proven errors set aside."""
    lines = [
        "| language | kind | ours | ctags | matched | P | R | ours ctags lacks, proven | "
        "ctags' tags proven wrong | P set aside | R set aside | proven by |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for language, (by_class, settled) in rows.items():
        every, extra, missed = Counts(), 0, 0
        rows_out = []
        for kind_class in CLASSES:
            counts = by_class[kind_class]
            every.add(counts)
            extra += settled.extra[kind_class]
            missed += settled.missed[kind_class]
            rows_out.append(
                (kind_class, counts, settled.extra[kind_class], settled.missed[kind_class])
            )
        rows_out.append(("all", every, extra, missed))
        for kind_class, counts, proven_extra, proven_missed in rows_out:
            kept = counts.reference - proven_missed
            precision = (counts.matched + proven_extra) / counts.ours if counts.ours else None
            recall = counts.matched / kept if kept else None
            lines.append(
                f"| {language} | {kind_class} | {counts.ours} | {counts.reference} | "
                f"{counts.matched} | {_ratio(counts.precision)} | {_ratio(counts.recall)} | "
                f"{proven_extra} | {proven_missed} | {_ratio(precision)} | {_ratio(recall)} | "
                f"{settled.by} |"
            )
    return lines
