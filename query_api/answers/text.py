"""The text block of a tool answer: the same answer as the structured JSON, written for a model.

Clients differ in which block they hand the model (some the text, some the structured JSON), so
each block carries the whole answer; the text leaves out only what a program needs and a model
does not read (receipts, content hashes, offsets). Search, outline, related and context have a
rendering of their own; every other answer is written as indented `key: value` lines, which
cost a model fewer tokens than the same JSON and read the same.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import BaseModel

from query_api.answers.python_signatures import (
    is_python,
    named_signature,
    shown_reasons,
    without_docs,
)
from query_api.answers.related_text import related_lines
from query_api.core.index_build import building_line, building_note
from query_api.symbols.families import language_family
from schemas import bundle as b
from schemas import symbols as sy
from schemas import tools as t


def render_text(model: BaseModel, payload: dict[str, Any]) -> str:
    if isinstance(model, t.SearchResult):
        return _search(model)
    if isinstance(model, b.ContextResult):
        return _context(model)
    if isinstance(model, sy.OutlineResult):
        return _outline(model)
    if isinstance(model, sy.RelatedResult):
        return _related(model)
    if isinstance(model, t.IndexStatus):
        return _index_status(payload)
    if isinstance(model, sy.ChangedResult):
        return _changed(model, payload)
    if isinstance(model, t.EntryView) and model.kind == "Content" and "text" in model.fields:
        return _content(model, payload)
    return "\n".join(_lines(payload, ""))


def _content(model: t.EntryView, payload: dict[str, Any]) -> str:
    """A file's stored text as it reads (below its other fields), not one escaped line."""
    fields = {k: v for k, v in payload.get("fields", {}).items() if k != "text"}
    head = _lines({**payload, "fields": fields}, "")
    return "\n".join([*head, f"== {model.path}", model.fields["text"]])


def _changed(model: sy.ChangedResult, payload: dict[str, Any]) -> str:
    """`key: value` lines, dependents one line a file with its symbols (as related lists
    them: two lines each spent 38 dependents' worth of tokens on `symbol:` and `path:`)."""
    if model.dependents:
        grouped: dict[str, list[str]] = {}
        for dependent in model.dependents:
            grouped.setdefault(dependent.path, []).append(dependent.symbol)
        payload = {**payload, "dependents": {p: ", ".join(s) for p, s in grouped.items()}}
    if model.added or model.updated or model.removed:
        return "\n".join(_lines(payload, ""))
    # the empty lists are pruned from the payload: `repoId: koa` alone said nothing
    rest = {k: v for k, v in payload.items() if k != "repoId"}
    head = f"no file added, updated or removed in {model.repoId} since it was indexed"
    return "\n".join([head, *_lines(rest, "")])


MAX_QUERY_SHOWN = 120  # characters of a search's query its text's head line echoes
_CALLABLE_KINDS = frozenset({"Method", "Function"})

# index_status's counts of what the walk left out, said in one line instead of four keys
_LEFT_OUT = (
    "filesSkipped",
    "skippedByReason",
    "filesTruncated",
    "filesSearchedInPart",
    "ignoreRulesDropped",
    "ignoreRulesDroppedPaths",
)


def _index_status(payload: dict[str, Any]) -> str:
    """The job's `key: value` lines, with what was skipped or is held only in part said in
    words after the counts of files read (only when there is any)."""
    rest = {k: v for k, v in payload.items() if k not in _LEFT_OUT}
    lines = _lines(rest, "")
    at = next((i + 1 for i, line in enumerate(lines) if line.startswith("filesUnchanged")), 0)
    none = []
    if payload.get("status") == "None":  # the reference's answer for a repository never indexed
        none = [
            f"no index job is recorded for {payload.get('repoId')!r}: repocontext_list_repos "
            "shows the registered repositories, repocontext_add_repo indexes one"
        ]
    return "\n".join([*none, *lines[:at], *_left_out(payload), *lines[at:]])


def _left_out(payload: dict[str, Any]) -> list[str]:
    out = []
    skipped = payload.get("filesSkipped") or 0
    if skipped:
        reasons = payload.get("skippedByReason") or {}
        why = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))
        out.append(f"skipped: {_n(skipped, 'file')}" + (f" ({why})" if why else ""))
    cut = payload.get("filesTruncated") or 0
    if cut:
        partly = payload.get("filesSearchedInPart") or 0
        reach = f"{partly} of them searched only in part" if partly else "all searched to the end"
        out.append(f"truncated: {_n(cut, 'file')} past the 64 Ki characters stored ({reach})")
    dropped = payload.get("ignoreRulesDropped") or 0
    if dropped:
        where = ", ".join(payload.get("ignoreRulesDroppedPaths") or [])
        out.append(
            f"ignore rules dropped: {_n(dropped, 'line')} of {where} (over the limits or "
            "refused): files they name may be indexed"
        )
    return out


def _lines(value: Any, indent: str) -> list[str]:
    """`key: value` lines, nested values indented, list items led by `- `."""
    out: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, dict | list) and item:
                out.append(f"{indent}{key}:")
                out += _lines(item, indent + "  ")
            else:
                out.append(f"{indent}{key}: {_scalar(item)}")
    elif isinstance(value, list):
        for item in value:
            nested = _lines(item, indent + "  ") if isinstance(item, dict | list) else None
            if nested:
                out.append(f"{indent}- {nested[0].lstrip()}")
                out += nested[1:]
            else:
                out.append(f"{indent}- {_scalar(item)}")
    else:
        out.append(f"{indent}{_scalar(value)}")
    return out


def quoted(text: str) -> str:
    """`text` as it is when it reads unambiguously on a line, else as a JSON string (quotes,
    line breaks, leading or trailing blanks, or nothing at all), every character that does not
    print escaped: a NUL or an escape sequence a caller put in a query would otherwise reach
    the agent's terminal or transcript raw."""
    if text and text == text.strip() and text.isprintable() and not any(c in text for c in '"\\'):
        return text
    dumped = json.dumps(text, ensure_ascii=False)
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in dumped)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return quoted(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict | list):
        return "{}" if isinstance(value, dict) else "[]"
    return str(value)


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _lag(fresh: t.Freshness | None) -> list[str]:
    """One line when the views trail the log or the source, and one per repository whose
    index is still being built (else nothing: they are current)."""
    if fresh is None:
        return []
    parts = []
    if fresh.eventsBehind:
        parts.append(f"views trail the log by {_n(fresh.eventsBehind, 'event')}")
    if fresh.pendingFiles:
        parts.append(f"{_n(fresh.pendingFiles, 'changed file')} not indexed yet")
    if fresh.sourceCommit and fresh.indexedCommit and fresh.sourceCommit != fresh.indexedCommit:
        parts.append(f"indexed {fresh.indexedCommit[:12]}, source at {fresh.sourceCommit[:12]}")
    if fresh.sourceError:
        parts.append(f"source error: {quoted(fresh.sourceError)}")
    building = [building_line(build) for build in fresh.indexing or []]
    return ([f"freshness: {'; '.join(parts)}"] if parts else []) + building


def _how(mode: str, path: str) -> str:
    """The retrieval path, led by the mode where the path does not already start with it
    (`semantic.exact` says both; an `empty` answer's path names the plane that had nothing)."""
    return path if path.startswith(f"{mode}.") else f"{mode}, {path}"


def _stale(stale: bool | None) -> str:
    return " (stale)" if stale else ""


def _where(path: str, start: int | None, end: int | None) -> str:
    if start is None:
        return path
    return f"{path}:{start}" if end in (None, start) else f"{path}:{start}-{end}"


def _own_note(note: str | None, fresh: t.Freshness | None) -> str | None:
    """`note` without its part saying the index is being built: the freshness lines say
    that already (a bundle that matched nothing said it twice, 35 tokens of repetition)."""
    building = building_note(fresh.indexing if fresh else None)
    return note.removeprefix(building or "").removeprefix("; ") if note else None


def _search(r: t.SearchResult) -> str:
    where = r.repoId or f"every repository ({', '.join(r.searchedRepos or []) or 'none'})"
    how = _how(r.mode, r.retrievalPath)
    head = f"{_n(len(r.hits), 'hit')} for {_query_shown(r.query)} in {where} ({how})"
    lag = _lag(r.freshness)
    out = [head, *lag]
    for shard in r.shards or []:  # a sharded every-repository search: who did not answer
        if not shard.answered:
            out.append(f"partial: shard {shard.shard} did not answer ({shard.reason})")
    note = _own_note(r.note, r.freshness)
    if note:
        out.append(note)
    for i, hit in enumerate(r.hits, 1):
        out += _search_hit(i, hit, several_repos=r.repoId is None)
    return "\n".join(out)


def _query_shown(query: str) -> str:
    """The query as the head line echoes it: its first MAX_QUERY_SHOWN characters and its
    length when longer. An issue's text pasted as a 4,096-character query was echoed whole,
    about 1,000 tokens an answer of what the agent wrote itself (the JSON keeps it whole)."""
    if len(query) <= MAX_QUERY_SHOWN:
        return quoted(query)
    return f"{quoted(query[:MAX_QUERY_SHOWN].strip())}… ({len(query):,} characters)"


def _search_hit(rank: int, hit: t.SearchHit, several_repos: bool) -> list[str]:
    """One hit: what and where, score and reasons, then its snippet and linked memory."""
    e = hit.entry
    path = e.path or e.fields.get("filePath") or e.key
    if e.kind == "Memory":
        title = e.fields.get("title") or e.fields.get("body", "").split("\n", 1)[0]
        subject = f"memory {quoted(e.key)} {quoted(title[:120])}"
    elif e.kind == "Symbol":
        subject = f"{e.fullyQualifiedName} {_where(path, hit.startLine, hit.endLine)}"
    else:
        subject = _where(path, hit.startLine, hit.endLine) + _truncation(e.fields)
    if several_repos and e.repoId:  # hits of several repositories say whose
        subject = f"{e.repoId}: {subject}"
    reasons = ", ".join(quoted(r) for r in shown_reasons(hit.reasons, path))
    out = [f"{rank}. {subject} [{hit.score:.3g}; {reasons}]"]
    if hit.snippet:
        out += ["   " + line for line in hit.snippet.split("\n")]
    for m in hit.linkedMemory or []:
        out.append(f"   memory {quoted(m.key)}: {quoted(m.summary)}{_stale(m.stale)}")
    return out


def _truncation(fields: dict[str, str]) -> str:
    """` (text stops at 64 Ki characters, ...)` for a file the index does not hold whole
    (query_api/memory/views.py `truncation_fields`), else nothing."""
    if "truncated" not in fields:
        return ""
    return f" (text stops at 64 Ki characters; {_searched(fields.get('indexedChars'))})"


def _searched(indexed_chars: object) -> str:
    """How far search and declarations reach in a file whose stored text is cut."""
    if indexed_chars is None:
        return "searched to its end"
    return f"search and declarations stop at character {indexed_chars}"


def _outline(r: sy.OutlineResult) -> str:
    if not r.exists:
        return _absent(r.path, r.repoId, r.note, r.freshness)
    cost = f", {r.fullReadTokenCount} tokens to read whole" if r.fullReadTokenCount else ""
    if r.truncated and r.fullReadTokenCount:
        cost = f", {r.fullReadTokenCount} tokens to read the stored text"
    lines = f"{_n(r.lineCount, 'line')}, " if r.lineCount is not None else ""
    # the head is about the file: a page of a long outline (or one past its end) lists fewer
    # than it declares, and "0 symbols" read as a file that declares nothing
    declared = r.symbolCount if r.symbolCount is not None else len(r.symbols)
    head = f"{r.path} in {r.repoId}: {lines}{_n(declared, 'symbol')}{cost}"
    out = [head, *_outline_page(r), *_outline_cut(r), *_lag(r.freshness)]
    note = _own_note(r.note, r.freshness)  # a file declaring nothing: what it imports
    past_end = not r.symbols and bool(r.symbolCount)  # the page line says so already
    out += [note] if note and not past_end else []
    family = language_family(r.path)
    js = family == "js"
    symbols = [_go_field_alone(s) for s in r.symbols] if family == "go" else r.symbols
    out += [_outline_line(s, is_python(r.path), js) for s in symbols]
    return "\n".join(out)


# a Go field declared beside others on its line (`Username, Password string`): the names, then
# the type
_GO_FIELD_NAMES = re.compile(r"([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+)\s+(\S.*)")


def _go_field_alone(s: sy.OutlineSymbol) -> sy.OutlineSymbol:
    """A Go field sharing its line with others, with its own name and the type as its
    signature: on go-resty/resty `type User struct { Username, Password string }` read
    `Field resty.User.Password: Username, Password string` and `Field resty.User.Username,
    Password string`, a name that seemed to go on past the comma."""
    found = _GO_FIELD_NAMES.fullmatch(" ".join(s.signature.split())) if s.kind == "Field" else None
    simple = s.fullyQualifiedName.rpartition(".")[2]
    if found is None or simple not in (n.strip() for n in found.group(1).split(",")):
        return s
    if found.group(2).startswith("=") or " = " in found.group(2):  # `var a, b = 1, 2`: values
        return s
    return s.model_copy(update={"signature": f"{simple} {found.group(2)}"})


def _outline_line(s: sy.OutlineSymbol, python: bool = False, js: bool = False) -> str:
    """`23 Method AxiosHeaders.set(headerName?: string): AxiosHeaders`: a signature that
    starts with the declaration's name carries it after its qualifier, and a one-line
    declaration's range is its line. `23-23 Method AxiosHeaders.set(string): set(headerName?:
    string): ...` said the name and its parameters twice: axios' index.d.ts outline (354
    declarations) cost 7,339 tokens of text for a file of 4,598."""
    lines = str(s.startLine) if s.startLine == s.endLine else f"{s.startLine}-{s.endLine}"
    sig = " ".join(s.signature.split())
    sig = without_docs(sig) if python else sig  # PEP 727 `Doc("...")`: python_signatures
    base = s.fullyQualifiedName.split("(", 1)[0].split("#", 1)[0]  # `concat(Array)#2`
    qualifier, _, simple = base.rpartition(".")
    named = named_signature(qualifier, simple, sig) if python and simple else None
    if named is not None:  # `def __init__(self)`: query_api/answers/python_signatures.py
        return f"{lines} {s.kind} {named}"
    if js and s.kind in _CALLABLE_KINDS and sig.startswith("("):
        # an arrow function's signature is its parameters (`getInstance: () => data`):
        # `driver.getInstance: ()` read as a property typed `()`
        return f"{lines} {s.kind} {base}{sig}"
    # a TS property named by a string (`"X-Auth-Email"?: string`) carries its name quoted
    quoted = (f"{q}{simple}{q}" for q in "\"'" if simple and sig.startswith(f"{q}{simple}{q}"))
    head = next(quoted, simple)
    rest = sig[len(head) :] if head and sig.startswith(head) else None
    if rest is not None and (head != simple or not _continues_name(rest)):
        return f"{lines} {s.kind} {qualifier + '.' if qualifier else ''}{sig}"
    return f"{lines} {s.kind} {s.fullyQualifiedName}" + (f": {sig}" if sig else "")


def _continues_name(rest: str) -> bool:
    """Whether the signature's name goes on past the declaration's (`settleAll` of `settle`)."""
    return bool(rest) and (rest[0].isalnum() or rest[0] in "_$")


def _outline_page(r: sy.OutlineResult) -> list[str]:
    """One line when the symbols listed are one page of a longer list, and how to go on."""
    if r.symbolCount is None:
        return []
    shown = len(r.symbols)
    if not shown:
        return [f"offset past the last of {r.symbolCount:,} declarations"]
    first = (r.nextOffset or r.symbolCount) - shown + 1
    more = f"; offset {r.nextOffset} lists the next" if r.nextOffset is not None else ""
    return [f"declarations {first:,}-{first + shown - 1:,} of {r.symbolCount:,}{more}"]


def _outline_cut(r: sy.OutlineResult) -> list[str]:
    """One line for a file longer than its stored text: where the text the tools return
    stops, and how far the declarations below reach (past that line)."""
    if not r.truncated:
        return []
    where = f"line {r.truncatedAtLine}" if r.truncatedAtLine else "64 Ki characters"
    if r.sizeBytes:  # the line count of the whole file is not held: its size says how long
        where += f" of a {r.sizeBytes:,}-byte file"
    # a file declaring nothing (uv.lock) read "declarations listed to the end" beside "0
    # symbols": how far search reads it is what is left to say
    declares = bool(r.symbols) or bool(r.symbolCount)
    if r.indexedChars is None:
        reach = "declarations listed to the end" if declares else "searched to the end"
    elif declares:
        reach = f"declarations and search stop at character {r.indexedChars}"
    else:
        reach = f"search stops at character {r.indexedChars}"
    return [f"text stops at {where} (64 Ki characters stored); {reach}"]


def _related(r: sy.RelatedResult) -> str:
    if not r.exists:
        return _absent(r.path, r.repoId, r.note, r.freshness)
    note = _own_note(r.note, r.freshness)  # what its dependents leave out (Go members)
    head = [f"{r.path} in {r.repoId}", *_lag(r.freshness)]
    return "\n".join([*head, *related_lines(r), *([note] if note else [])])


def _absent(path: str, repo_id: str, note: str | None, fresh: t.Freshness | None) -> str:
    """A path that is no indexed file: what the views can say about it (a directory), else
    that it is not indexed (while the views trail the log, "not indexed" may be "not yet")."""
    return "\n".join([note or f"{path} is not indexed in {repo_id}", *_lag(fresh)])


def _context(r: b.ContextResult) -> str:
    state = ", truncated" if r.truncated else ""
    head = (
        f"{_n(len(r.entries), 'file')} in {r.repoId} at {r.detail} "
        f"({_how(r.mode, r.retrievalPath)}); {r.responseTokens}/{r.budgetTokens} tokens{state}"
    )
    shared = shared_reasons(r.entries)
    said = [why for why in shared if not how_found(why)]
    if said:
        head += f"; every file: {', '.join(quoted(why) for why in said)}"
    note = _own_note(r.note, r.freshness)
    out = [head, *_lag(r.freshness), *([note] if note else [])]
    if r.retryBudgetTokens is not None:
        out.append(f"nothing fit: retry with responseBudgetTokens >= {r.retryBudgetTokens}")
    out += [reused_line(reused) for reused in r.reused]

    for e in r.entries:
        out += entry_lines(e, frozenset(shared))
    return "\n".join(out)


def reused_line(reused: b.Reused) -> str:
    """One acknowledgement of code the caller holds, as the text block says it. One without
    a receipt for a file's spans (or outline lines) stands for all of them (bundle.py):
    typer's `reused span typer/core.py` read as if one span were held."""
    if reused.startLine is not None and reused.endLine is not None:
        return f"reused {reused.kind} {reused.path} lines {reused.startLine}-{reused.endLine}"
    if reused.receipt is None and reused.kind != "file":
        return f"reused every {reused.kind} of {reused.path} sent before"
    return f"reused {reused.kind} {reused.path} {reused.symbol or ''}".rstrip()


def shared_reasons(entries: list[b.BundleEntry]) -> list[str]:
    """The reasons every entry of a bundle of several gives (`semantic`, `chunk:file` when
    each came from the vectors), in the first entry's order: the text says them once, in
    its head line, not in every entry's header."""
    if len(entries) < 2:
        return []
    rest = [set(e.reasons) for e in entries[1:]]
    return [why for why in entries[0].reasons if all(why in other for other in rest)]


_SYMBOL_REASON = "symbol:"
# how a bundle entry's file was found (the vectors, which chunk, both lists): the head line's
# retrieval path says it, so the text headers leave them to the JSON; they cost a one-file
# 2,000-token answer ten tokens beside its code and told the reader nothing of the file
_FOUND_BY = frozenset({"semantic", "keyword-fused"})


def how_found(reason: str) -> bool:
    return reason in _FOUND_BY or reason.startswith("chunk:")


def entry_lines(e: b.BundleEntry, shared: frozenset[str] = frozenset()) -> list[str]:
    """One bundle entry: a header naming its lines and why it is here (beyond the reasons
    the head line says every entry shares), then its content."""
    # a `symbol:` reason the bundle kept names a declaration its content does not hold (one
    # it packs is left out already: context/entry_fields.bundle_reasons): said where the
    # content is a path or an outline, the one pointer into the file; beside code the JSON
    # has it, and the header would repeat it in every bundle's envelope
    code = bool(e.units) and all(u.kind == "span" for u in e.units)
    why = ", ".join(
        quoted(r)
        for r in e.reasons
        if r not in shared and not how_found(r) and not (code and r.startswith(_SYMBOL_REASON))
    )
    out = [f"== {_where(e.path, e.startLine, e.endLine)}" + (f" [{why}]" if why else "")]
    if e.truncatedAtLine is not None:  # the file goes on: its stored text stops in that line
        past = e._hit_past  # the search's hit lies past it: the agent reads it from the file
        hit = f"; hit {past[0]}-{past[1]} past it" if past else ""
        out[0] += f" (stored text stops at line {e.truncatedAtLine}{hit})"
    for m in e.linkedMemory:
        out.append(f"memory {quoted(m.key)}: {quoted(m.summary)}{_stale(m.stale)}")
    sliced = bool(e.units) and all(u.kind == "span" and u.startLine for u in e.units)
    if e.content == e.path and all(u.kind == "pointer" for u in e.units):
        return out  # a pointer's content is its path, which the header says
    return out + (_spans(e) if sliced else [e.content])


def _spans(e: b.BundleEntry) -> list[str]:
    """A sliced file's spans, each led by the lines it holds (`content` is the spans' lines,
    one after the other)."""
    out: list[str] = []
    blocks = _span_blocks(e)
    for unit, block in zip(e.units, blocks, strict=False):
        out.append(f"-- {unit.startLine}-{unit.endLine}")  # the code names its declaration
        out.append(block)
    return out


def _span_blocks(e: b.BundleEntry) -> list[str]:
    lines = e.content.split("\n")
    blocks, at = [], 0
    for unit in e.units:
        size = (unit.endLine or 0) - (unit.startLine or 0) + 1
        blocks.append("\n".join(lines[at : at + size]))
        at += size
    return blocks
