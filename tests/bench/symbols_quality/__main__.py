"""The benchmark's command line: `run` prints precision/recall per language and kind class,
the symbols named by keywords, and the worst files (docs/symbols.md explains the table)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from processors.symbols.processor import symbols_of
from schemas.events import FileUpsert
from tests.bench.symbols_quality import native, xrefs
from tests.bench.symbols_quality.compare import (
    Counts,
    FileResult,
    compare_file,
    keyword_names,
)
from tests.bench.symbols_quality.corpus import LANGUAGES, SourceFile, checkout, read, sample
from tests.bench.symbols_quality.references import (
    CLASSES,
    Tag,
    ctags_missing,
    ctags_version,
    python_ast,
    run_ctags,
)
from tests.bench.symbols_quality.settled import (
    REWRITES,
    Settled,
    by_rewriting,
    by_second_reference,
)
from tests.bench.symbols_quality.settled import table as settled_table

_JS_LANGUAGES = ("typescript", "tsx", "javascript")
EXPORTED = "(exported)"  # native/ts_decls.js marks a module's exported declarations so
DEFAULT_CACHE = Path("/tmp/repocontext-symbols-quality")


def ours(source: SourceFile, body: str) -> list[dict[str, Any]]:
    upsert = FileUpsert(
        repo_id="bench",
        path=source.path,
        digest="xx128:0",
        size=len(body),
        mtime_ns=0,
        language=source.language,
        body=body,
        observed_at=0.0,
    )
    records = symbols_of(upsert)
    return [] if records is None else [s.model_dump() for s in records[0].symbols]


def cached_tags(
    cache: Path, files: list[SourceFile], language: str, tool: str
) -> dict[str, list[Tag]]:
    """The tags `tool` ("ctags" or the language's own parser) finds in `files` (one
    language), cached by the file list, the tool and the rules that keep tags."""
    by_pin: dict[str, list[SourceFile]] = defaultdict(list)
    for source in files:
        by_pin[source.pin.repo].append(source)
    out: dict[str, list[Tag]] = {}
    rules = (Path(__file__).parent / "references.py").read_bytes()
    rules += ctags_version().encode() if tool == "ctags" else native.rules()
    for group in by_pin.values():
        pin = group[0].pin
        paths = [s.path for s in group]
        digest = hashlib.sha1(
            b"\n".join([rules, *(x.encode() for x in (tool, pin.commit, language))])
            + "\n".join(paths).encode()
        ).hexdigest()[:16]
        cached = cache / "tags" / f"{language}-{digest}.json"
        if cached.exists():
            raw = json.loads(cached.read_text())
        else:
            root = checkout(pin, cache)
            if tool == "ctags":
                tags = run_ctags(root, paths, language)
            else:
                tags = native.native_tags(language, root, paths, cache)
            raw = {path: [list(t.__dict__.values()) for t in found] for path, found in tags.items()}
            cached.parent.mkdir(parents=True, exist_ok=True)
            partial = cached.with_suffix(f".{os.getpid()}.part")  # another run may read it
            partial.write_text(json.dumps(raw))
            partial.replace(cached)
        for path, found in raw.items():
            out[f"{pin.repo}:{path}"] = [Tag(*t) for t in found]
    return out


def _ratio(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.3f}"


def _table(totals: dict[tuple[str, str], dict[str, Counts]], files: dict[str, int]) -> list[str]:
    lines = [
        "| language | files | reference | kind | ours | ref | matched | precision | recall |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (language, tool), by_class in totals.items():
        rows = [*((c, by_class[c]) for c in CLASSES)]
        every = Counts()
        for _c, counts in rows:
            every.add(counts)
        for kind_class, counts in [*rows, ("all", every)]:
            lines.append(
                f"| {language} | {files[language]} | {tool} | {kind_class} | {counts.ours} | "
                f"{counts.reference} | {counts.matched} | {_ratio(counts.precision)} | "
                f"{_ratio(counts.recall)} |"
            )
    return lines


def _worst(results: list[FileResult], count: int) -> list[str]:
    lines = []
    for result in sorted(results, key=lambda r: -r.errors)[:count]:
        if not result.errors:
            break
        missed = ", ".join(f"{t.name}:{t.line}({t.kind})" for t in result.missed[:4])
        extra = ", ".join(f"{t.name}:{t.line}({t.kind})" for t in result.extra[:4])
        lines.append(
            f"- {result.key} [{result.language}] missed {len(result.missed)} [{missed}] "
            f"extra {len(result.extra)} [{extra}]"
        )
    return lines


def _lists(tool: str, own: str | None, against: str) -> bool:
    """Whether the worst files and `--json` list the differences against `tool`: the
    language's own parser (`own`: Python's `ast`, tsc, ...) where there is one, else ctags;
    or always ctags."""
    if against == "ctags":
        return tool == "ctags"
    return tool == own or (own is None and tool == "ctags")


def _second_reference(language: str, references: dict[str, Any]) -> Settled | None:
    """What settles the language's differences with ctags (settled.py), if anything."""
    if language == "python":
        return Settled("ast")
    own = native.TOOLS.get(language)
    if own is not None and own in references:
        return Settled(own)
    return Settled(REWRITES) if language == "csharp" else None


def _compare_source(
    source: SourceFile,
    body: str,
    mine: list[dict[str, Any]],
    references: dict[str, dict[str, list[Tag]]],
) -> dict[str, tuple[FileResult, list[Tag]]]:
    """One file against each reference (Python's `ast` too): the result and the tags."""
    out = {}
    for tool, reference in references.items():
        tags = reference.get(source.key, [])
        out[tool] = (compare_file(source.key, source.grammar, mine, tags), tags)
    if source.grammar == "python":
        parsed = python_ast(body)
        if parsed is not None:
            out["ast"] = (compare_file(source.key, source.grammar, mine, parsed), parsed)
    return out


def run(args: argparse.Namespace) -> int:
    missing = ctags_missing()
    if missing:
        print(f"symbols_quality: {missing}", file=sys.stderr)
        return 2
    cache: Path = args.cache
    languages = tuple(args.language) or LANGUAGES
    sources = sample(cache, args.max_files, languages)
    totals: dict[tuple[str, str], dict[str, Counts]] = {}
    files: dict[str, int] = defaultdict(int)
    results: list[FileResult] = []
    keywords: list[str] = []
    settled_rows: dict[str, tuple[dict[str, Counts], Settled]] = {}
    exports: dict[str, int] = defaultdict(int)  # TS/JS: exported top-level declarations (tsc)
    missed_exports: list[str] = []
    for language in languages:
        group = [s for s in sources if s.grammar == language]
        files[language] = len(group)
        if not group:
            continue
        references = {"ctags": cached_tags(cache, group, language, "ctags")}
        own = native.TOOLS.get(language)
        if own is not None:
            why = native.missing(language, cache)
            if why:
                print(f"symbols_quality: {language}: no {own} reference ({why})", file=sys.stderr)
            else:
                references[own] = cached_tags(cache, group, language, own)
        tools = [*references, "ast"] if language == "python" else list(references)
        listed = "ast" if language == "python" else own if own in references else None
        for tool in tools:
            totals[(language, tool)] = {c: Counts() for c in CLASSES}
        settled = _second_reference(language, references)
        against_ctags: list[FileResult] = []
        for source in group:
            body = read(cache, source)
            mine = ours(source, body)
            keywords += [
                f"- {source.key}:{line} {kind} `{name}`"
                for name, line, kind in keyword_names(language, mine)
            ]
            by_tool = _compare_source(source, body, mine, references)
            for tool, (result, _tags) in by_tool.items():
                if _lists(tool, listed, args.worst_against):
                    results.append(result)
                for kind_class, counts in result.counts.items():
                    totals[(language, tool)][kind_class].add(counts)
            against_ctags.append(by_tool["ctags"][0])
            if own in by_tool and language in _JS_LANGUAGES:
                result, tags = by_tool[own]
                exports[language] += sum(t.kind.endswith(EXPORTED) for t in tags)
                missed_exports += [
                    f"- {source.key}:{t.line} {t.kind} `{t.name}`"
                    for t in result.missed
                    if t.kind.endswith(EXPORTED)
                ]
            if settled is not None and settled.by in by_tool:
                by_second_reference(settled, by_tool["ctags"][0], *by_tool[settled.by])
        if settled is not None:
            if settled.by == REWRITES:
                by_rewriting(settled, against_ctags, cache)
            settled_rows[language] = (totals[(language, "ctags")], settled)
    print(f"reference: {ctags_version()}; at most {args.max_files} files per language\n")
    print("\n".join(_table(totals, files)))
    if settled_rows:
        print("\nctags' rows as measured and with its proven errors set aside (settled.py):\n")
        print("\n".join(settled_table(settled_rows)))
    if exports:
        counted = ", ".join(f"{language} {count}" for language, count in exports.items())
        print(f"\nexported top-level declarations (tsc: {counted}) we miss: {len(missed_exports)}")
        print("\n".join(missed_exports[: args.worst]))
    print(f"\nsymbols named by a keyword: {len(keywords)}")
    print("\n".join(keywords[: args.worst]))
    against = "ctags" if args.worst_against == "ctags" else "the language's own parser, else ctags"
    print(f"\nworst files (against {against}), {args.worst}:")
    print("\n".join(_worst(results, args.worst)))
    if args.json:
        per_file = [
            {
                "file": r.key,
                "language": r.language,
                "missed": [t.__dict__ for t in r.missed],
                "extra": [t.__dict__ for t in r.extra],
            }
            for r in results
            if r.errors
        ]
        args.json.write_text(json.dumps(per_file, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.symbols_quality")
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run", help="compare our symbols with ctags (and Python's ast)")
    go.add_argument("--max-files", type=int, default=300, help="per language (default 300)")
    go.add_argument("--language", action="append", default=[], choices=LANGUAGES)
    go.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="trees and ctags output")
    go.add_argument("--worst", type=int, default=25, help="files listed (default 25)")
    go.add_argument("--json", type=Path, help="write every file's misses and extras here")
    go.add_argument(
        "--worst-against",
        choices=("own", "ctags"),
        default="own",
        help="the reference the worst files and --json compare with (default: the language's own)",
    )
    refs = sub.add_parser("xrefs", help="related's imports and dependents against jedi")
    refs.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="trees and jedi output")
    refs.add_argument("--worst", type=int, default=10, help="files listed (default 10)")
    refs.add_argument(
        "--language", action="append", default=[], choices=("python", "typescript", "rust")
    )
    args = parser.parse_args(argv)
    if args.command == "xrefs":
        return xrefs.run(args.cache, args.worst, args.language)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
