"""A search that names a place in a file (`src/app.ts:18-49`) points that file's hit there.

The search's own text answer writes a hit as `path:start-end`, and editors, stack traces and
code hosts write places alike (`app.ts:12`, `app.ts:12:5`, `app.ts#L12`, `app.ts#L12-L30`):
an agent pastes one back to look at those lines. The file ranked first by its path, but its
lines were those holding the most of the query's words: on unjs/ofetch, `src/fetch.ts:219`
pointed at line 3, `import { createFetchError } from "./error.ts"` (it holds `fetch`), and
`src/fetch.ts:216-222` alike, where line 219 is `const parseFunction = ... JSON.parse`.
A place written inside a sentence (`why does src/fetch.ts:219 throw`) points there too, and a
context bundle sends those lines of the file (query_api/context/spans.py spans_at_place).
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from query_api.retrieval.frame_members import member_line
from query_api.retrieval.group_gutters import without_gutters
from query_api.retrieval.hit_details import (
    DETAILED_HITS,
    LINE_CHARS,
    SNIPPET_LINES,
    SYMBOL_REASON,
    HitLocator,
)
from query_api.retrieval.rust_places import rust_frames
from query_api.retrieval.shown_reasons import display_reason
from query_api.retrieval.warning_places import warning_frames
from schemas import tools as t
from schemas.retrieval import MAX_REASONS
from streams.stores.views.named_files import (
    MENTIONS_LINES,
    PLACE_SUFFIX,
    WORDED_PLACES,
    whole_path,
)
from streams.stores.views.symbol_spans import Declared


@dataclass(frozen=True)
class Place:
    path: str  # as written (casefolded), without the lines
    first: int
    last: int
    # the code a Python traceback's frame quotes for its line, stripped: not compared
    quoted: str = field(default="", compare=False)
    # a trace's frame's path in the case the runtime wrote it (none for a place typed by hand)
    written: str = field(default="", compare=False)
    # the method a JVM frame names, and its class's innermost name (frame_members.py)
    member: str = field(default="", compare=False)
    owner: str = field(default="", compare=False)


def named_place(query: str) -> Place | None:
    """The file and lines a query that is only a path with a line suffix names; else None."""
    whole = whole_path(query)
    found = PLACE_SUFFIX.search(whole)
    if found is None or found.start() == 0:
        return None
    first = int(found.group(1) or found.group(3))
    last = int(found.group(2) or found.group(4) or first)
    first, last = min(first, last), max(first, last)
    if first < 1:
        return None
    return Place(whole[: found.start()].casefold(), first, last)


NEAR_BLANK = 3  # lines from a blank place its snippet looks for code
_BRACKETS = " \t\r{}()[];,"  # a line of these alone closes or opens code: no code itself
_QUOTES = "\"'`"  # and a docstring's closing quotes alone, or a comment's end
_CLOSING_MARKS = frozenset({"", "*/", "-->"})
CONTENT_REASON = "content-match"  # the reason after the `symbol:` ones (spec §1.4's order)
MAX_PLACES = 4  # places a text names; more is a list, and each costs a scan of its file
_PLACE_WORDS = 400  # words of a task looked at for places: what a caller sends is bounded
_PLACE_CHARS = 8000  # characters of it looked at for places written in words, alike
_AROUND = "`'\"()[]<>{},;"  # quotes and brackets a place is written in (`app.ts:12`)
# a Python traceback's frame, as the interpreter prints it
# and the line of code it quotes below it, when it does
_FRAME = re.compile(r'File "([^"\n]+)", line (\d+)[^\n]*(?:\n[ \t]+(?![ \t]|File ")([^\n]*\S))?')
# pytest's short frame (`--tb=short`, a failure report's frames): `pkg/errors.py:468: in
# best_match` at a line's start, the code it ran indented below it (QA on
# python-jsonschema/jsonschema: a pasted one was a bare place, its quoted code unread)
_PYTEST_FRAME = re.compile(
    r"^[ \t]*([\w.~/\\-]+\.pyi?):(\d+): in [^\n]*(?:\n[ \t]+(?![ \t])([^\n]*\S))?",
    re.MULTILINE,
)
# a compiler's place, a line and maybe its column in parentheses after the file, then a colon:
# TypeScript's `src/s3.ts(152,9): error TS2322: ...`, MSBuild's `Program.cs(12,5): error`
_COMPILER_PLACE = re.compile(
    r"(?<![\w/.\\-])((?:[\w.~:-]*[\\/])*[\w-]+(?:\.[\w-]+)*\.[A-Za-z]\w{0,5})\((\d+)(?:,\s*\d+)?\)(?=:)"
)


def written_places(text: str) -> list[Place]:
    """The places a query or task names: the whole of it when it is one (named_place), else
    the frames of a Python traceback in it, innermost first (where it failed), the places it
    writes as a compiler does (`src/s3.ts(152,9):`) and in words (`filters.py line 995`),
    and each of its words that is one (`src/fetch.ts:219,` in a sentence), at most
    MAX_PLACES."""
    text = without_gutters(text)  # an exception group's frames, read as a plain trace's
    whole = named_place(text)
    if whole is not None:
        return [whole]
    out = frames(text)
    if len(out) >= MAX_PLACES:
        return out
    places = [*_compiler_places(text), *_in_words(text)]
    for place in [*places, *map(_word_place, text.split()[:_PLACE_WORDS])]:
        if place is not None and place not in out:
            out.append(place)
            if len(out) >= MAX_PLACES:
                break
    return out


def frames(text: str) -> list[Place]:
    """The places of the Python traceback frames `text` holds, innermost first, then those
    of a JVM stack trace's (jvm_frames), a Go goroutine trace's (go_frames), a Rust panic's
    or compiler diagnostic's (rust_places), a Python warning's (warning_places) and a
    JavaScript one's (v8_frames), at most MAX_PLACES."""
    text = without_gutters(text)
    out: list[Place] = []
    written = [
        (
            frame.group(1).replace("\\", "/").removeprefix("./"),
            int(frame.group(2)),
            (frame.group(3) or "").strip(),
        )
        for frame in reversed(_python_frames(text))
    ]
    jvm = jvm_frame_members(text)
    members = {(path.casefold(), line): (member, owner) for path, line, member, owner in jvm}
    jvm_go_js = [*((path, line) for path, line, _, _ in jvm), *go_frames(text)]
    others = [(path, line, "") for path, line in jvm_go_js]
    scripts = [(path, line, "") for path, line in v8_frames(text)]
    places = [*written, *others, *rust_frames(text), *warning_frames(text), *scripts]
    for path, line, quoted in places:
        member, owner = members.get((path.casefold(), line), ("", ""))
        place = Place(path.casefold(), line, line, quoted, path, member, owner)
        if line >= 1 and place not in out:
            out.append(place)
            if len(out) >= MAX_PLACES:
                break
    return out


def _python_frames(text: str) -> list[re.Match[str]]:
    """The frames of a Python traceback and of pytest's short one, in the order written."""
    written = [*_FRAME.finditer(text), *_PYTEST_FRAME.finditer(text)]
    return sorted(written, key=lambda frame: frame.start())


# a JVM stack trace's frame: `at org.pkg.Outer$Inner.method(Outer.java:80)`, after an
# optional class loader or module (`java.base/`, `app//`)
_JVM_FRAME = re.compile(
    r"^[ \t]*at[ \t]+(?:[\w.$@-]*/)*([\w$]+(?:\.[\w$]+)*)\.([\w$<>-]+)"
    r"\(([\w$-]+\.[A-Za-z]\w{0,5}):(\d+)\)",
    re.MULTILINE,
)
_CAUSED_BY = re.compile(r"^[ \t]*Caused by:", re.MULTILINE)
# the platform's own packages: their frames name no file of a repository using them
_PLATFORM = ("java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "scala.")


def jvm_frames(text: str) -> list[tuple[str, int]]:
    """The (path, line) of each frame of a JVM stack trace in `text` (Java, Kotlin), the
    innermost first: the last `Caused by:` section (the root cause) first, each section's
    frames as printed (its innermost on top), outside the platform's packages. The path is
    the class's package as folders and the file the frame names
    (`org/apache/commons/text/translate/CsvTranslators.java`). QA on apache/commons-text:
    `at ...CsvTranslators$CsvUnescaper.translateWhole(CsvTranslators.java:80)` named no
    place, so the hit's lines were those holding the trace's words, not line 80."""
    return [(path, line) for path, line, _, _ in jvm_frame_members(text)]


def jvm_frame_members(text: str) -> list[tuple[str, int, str, str]]:
    """jvm_frames with the method each frame names and its class's innermost name
    (`getNextRecord` and `CSVRecordIterator` for `CSVParser$CSVRecordIterator`)."""
    cuts = [0, *(m.start() for m in _CAUSED_BY.finditer(text[:_PLACE_CHARS])), _PLACE_CHARS]
    out: list[tuple[str, int, str, str]] = []
    for lo, hi in reversed(list(itertools.pairwise(cuts))):
        for frame in _JVM_FRAME.finditer(text[lo:hi]):
            owner, member, file, line = frame.group(1, 2, 3, 4)
            if (owner + ".").startswith(_PLATFORM):
                continue
            package, _, name = owner.rpartition(".")
            path = f"{package.replace('.', '/')}/{file}" if package else file
            out.append((path, int(line), member, name.rpartition("$")[2]))
    return out


# a goroutine trace's frame: its function's line (`github.com/x/mux.(*Route).Match(0xc0...)`,
# `created by testing.(*T).Run in goroutine 1`), then its file's, indented by a tab
_GO_FRAME = re.compile(
    r"^(?:created by )?([^\s(][^\n(]*)[^\n]*\n\t([^\s:]+\.go):(\d+)(?: \+0x[0-9a-fA-F]+)?[ \t]*$",
    re.MULTILINE,
)


def go_frames(text: str) -> list[tuple[str, int]]:
    """The (path, line) of each frame of a Go panic's goroutine traces in `text`, as printed
    (the innermost on top), outside the runtime and the standard library: a function whose
    package's first folder has no dot and is no `main` (`testing.tRunner`, `panic`,
    `net/http.(*conn).serve`). QA on gorilla/mux: read as words, a trace's places were the
    standard library's testing.go and panic.go first, and the fourth, mux_test.go:1420, was
    left out."""
    out: list[tuple[str, int]] = []
    for frame in _GO_FRAME.finditer(text[:_PLACE_CHARS]):
        function, path, line = frame.group(1, 2, 3)
        folders = function.rstrip(".").split("/")
        package = "/".join([*folders[:-1], folders[-1].split(".", 1)[0]])
        first = package.split("/", 1)[0]
        if "." in first or package == "main":
            out.append((path, int(line)))
    return out


# a JavaScript stack trace's frame: V8's `    at fn (path:line:col)`, `    at path:line:col`,
# `    at async fn (...)`, `    at new X (...)`; Firefox's and Safari's `fn@path:line:col`
_V8_FRAMES = (
    re.compile(r"^[ \t]*at[ \t]+(?:[^\n]*?[ \t]\()?([^\s()]+):(\d+):\d+\)?[ \t]*$", re.M),
    re.compile(r"^[ \t]*[\w$.<>/]*@([^\s@]+):(\d+):\d+[ \t]*$", re.MULTILINE),
)
# a frame's URL: its scheme and host (`http://localhost:5173/`, `file://`,
# `webpack-internal:///./`) are no part of the repository's path
_URL_HEAD = re.compile(r"^[A-Za-z][\w+.-]+://[^/]*/*(?:\./)?")


def v8_frames(text: str) -> list[tuple[str, int]]:
    """The (path, line) of each frame of the JavaScript stack traces in `text`, as printed
    (the innermost on top), outside Node's own modules (`node:internal/...`): its URL's
    path without the query (`src/x.ts?t=1700`), a `file://` path absolute. QA on mswjs/msw:
    read as places, a trace's outer frame ranked above the one it threw in."""
    found: list[tuple[int, str, int]] = []
    for pattern in _V8_FRAMES:
        for frame in pattern.finditer(text[:_PLACE_CHARS]):
            written = frame.group(1)
            if written.startswith(("node:", "internal/", "<")):
                continue
            path = written.split("?", 1)[0].split("#", 1)[0].replace("\\", "/")
            head = _URL_HEAD.match(path)
            if head is not None:
                path = ("/" if written.startswith("file:") else "") + path[head.end() :]
            found.append((frame.start(), path, int(frame.group(2))))
    return [(path, line) for _, path, line in sorted(found)]


def _word_place(word: str) -> Place | None:
    return named_place(word.strip(_AROUND).rstrip(".:?!").strip(_AROUND))


def _compiler_places(text: str) -> list[Place]:
    """The places `text` writes as a compiler does (`src/s3.ts(152,9)`). QA on unjs/unstorage:
    tsc's `src/drivers/s3.ts(152,9): error TS2322: ...` pointed s3.ts at line 63, which holds
    `string`, not at line 152."""
    out = []
    for found in _COMPILER_PLACE.finditer(text[:_PLACE_CHARS]):
        path = found.group(1).replace("\\", "/").removeprefix("./").casefold()
        line = int(found.group(2))
        if line >= 1:
            out.append(Place(path, line, line))
    return out


def _in_words(text: str) -> list[Place]:
    """The places `text` writes in words (`filters.py line 995`, `line 995 of filters.py`)."""
    out: list[Place] = []
    if not MENTIONS_LINES.search(text[:_PLACE_CHARS]):
        return out
    for at, pattern in enumerate(WORDED_PLACES):
        for found in pattern.finditer(text[:_PLACE_CHARS]):
            path, first, last = found.group(1, 2, 3) if at == 0 else found.group(3, 1, 2)
            lo, hi = int(first), int(last or first)
            path = path.replace("\\", "/").removeprefix("./").casefold()
            if min(lo, hi) >= 1:
                out.append(Place(path, min(lo, hi), max(lo, hi)))
    return out


def place_of(places: Sequence[Place], path: str) -> Place | None:
    """The first of `places` that names the file at `path`."""
    return next((place for place in places if _names(place, path)), None)


def place_among(places: Sequence[Place], path: str, paths: Sequence[str]) -> Place | None:
    """The first of `places` that names the file at `path` by as many of its trailing
    segments as it names any of `paths` by: a Go frame's `/app/examples/chat/client.go:66`
    names examples/chat/client.go, not the root's client.go it also ends with (QA on
    gorilla/websocket: the root's client.go was placed second and pointed at line 66)."""
    for place in places:
        length = _named_length(place, path)
        if length and all(_named_length(place, other) <= length for other in paths):
            return place
    return None


def _named_length(place: Place, path: str) -> int:
    """How many trailing segments of `path` the place's path ends with; 0 when the place
    does not name it (an installed module's copy counts its own, a package's build its
    source's, less their extensions)."""
    if not _names(place, path):
        return 0
    written, own = place.path.split("/"), path.casefold().split("/")
    built = built_module(place.path)
    if built is not None and built_from(built, path):
        written, own = built.split("/"), posixpath.splitext(path.casefold())[0].split("/")
    length = 0
    while length < min(len(written), len(own)) and written[-1 - length] == own[-1 - length]:
        length += 1
    return max(length, 1)


# where an installed distribution's modules lie: what follows is the module's own path
_INSTALLED = re.compile(r"/(?:site|dist)-packages/")


def _names(place: Place, path: str) -> bool:
    """Whether the place's path is `path` or its trailing segments, or a path ending with
    it: a traceback's absolute path of a checkout (`/home/dev/proj/src/app.py`); or an
    installed copy of the module `path` holds (`.../site-packages/werkzeug/serving.py` for
    `src/werkzeug/serving.py`: QA on pallets/werkzeug, such a frame pointed the hit at the
    words of its path, `Python 3.12`, not at its line). A frame's file written in another
    case is another file: `at onSubmit (App.tsx:20:5)`, the reporter's component, is not
    app/src/app.tsx (QA on react-hook-form placed it third)."""
    if place.written and _cased_apart(place.written.rpartition("/")[2], path.rpartition("/")[2]):
        return False
    folded = path.casefold()
    if (
        folded == place.path
        or folded.endswith("/" + place.path)
        or place.path.endswith("/" + folded)
    ):
        return True
    installed = _INSTALLED.split(place.path)
    module = installed[-1] if len(installed) > 1 else ""
    if module and (folded == module or folded.endswith("/" + module)):
        return True
    built = built_module(place.path)
    return built is not None and built_from(built, path)


def _cased_apart(written: str, name: str) -> bool:
    """Whether two file names are the same but for case."""
    return written != name and written.casefold() == name.casefold()


# a JavaScript package's installed build: node_modules/<package>/<build folders>/<module>.mjs
_NODE_MODULES = re.compile(r"(?:^|/)node_modules/(?:@[^/]+/)?([^/]+)/(.+)$")
_BUILD_FOLDERS = frozenset({"build", "dist", "lib", "out", "esm", "cjs", "es", "umd", "module"})
_BUILT = (".js", ".mjs", ".cjs")
_JS_SOURCES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def built_module(written: str) -> str | None:
    """The module a frame's path inside an installed JavaScript package's build names, less
    its build folders and extension (`.../node_modules/typebox/build/type/types/schema.mjs`
    -> `type/types/schema`), else None. A module of one name (`dist/index.mjs`) is any
    folder's, so it is named in the folder called as the package (`@middy/http-cors/index.js`
    -> `http-cors/index`): a monorepo's workspace package lives there (packages/http-cors/),
    and QA on middyjs/middy found a trace through two of them placing neither."""
    found = _NODE_MODULES.search(written)
    if found is None:
        return None
    stem, extension = posixpath.splitext(found.group(2))
    parts = stem.split("/")
    if extension not in _BUILT:
        return None
    while len(parts) > 1 and parts[0] in _BUILD_FOLDERS:
        parts = parts[1:]
    return "/".join(parts if len(parts) > 1 else [found.group(1), *parts])


def built_from(module: str, path: str) -> bool:
    """Whether the TS/JS source at `path` is the one `module` (built_module) is built from:
    src/type/types/schema.ts for `type/types/schema`. QA on sinclairzx81/typebox: a stack
    trace through node_modules/typebox/build/type/types/schema.mjs placed no frame's file,
    and ranked five other files declaring `FromType` first."""
    folded = path.casefold()
    if not folded.endswith(_JS_SOURCES):
        return False
    return posixpath.splitext(folded)[0].endswith("/" + module)


def at_named_lines(
    locator: HitLocator, repo_id: str, query: str, hits: list[t.SearchHit]
) -> tuple[list[t.SearchHit], str | None]:
    """`hits` with each detailed file hit the query names by a place (written_places)
    pointed at its lines, and a note when a place lies past its file's end.
    The range is the named lines, the snippet the first SNIPPET_LINES non-blank ones (a
    blank line's nearest code, above and below). A line past the file's end points at its
    last line, and the note says so: `flag.go:99999` had pointed at whatever lines held the
    word `flag`, and nothing said the line does not exist. Past the text stored for a large
    file, the hit keeps the lines its words found and the note says where the text stops."""
    places = written_places(query)
    if not places:
        return hits, None
    alone = named_place(query) is not None  # the query is the place, and nothing else
    out = []
    notes: list[str] = []
    paths = [hit.entry.path for hit in hits if hit.entry.kind == "File" and hit.entry.path]
    for rank, hit in enumerate(hits):
        path = hit.entry.path or hit.entry.fields.get("filePath")
        place = place_among(places, path, paths) if path else None
        if rank < DETAILED_HITS and hit.entry.kind == "File" and path and place is not None:
            body = locator.body(repo_id, path)
            if body is not None:
                lines = body.split("\n")
                if body.endswith("\n"):
                    lines.pop()
                place, moved = quoted_line(path, place, lines)
                place, outside = member_line(path, place, locator.symbols_of(repo_id, path))
                notes.extend(filter(None, [moved, outside]))
                if place.first > len(lines):
                    notes.append(
                        _past_end(path, place, len(lines), "truncated" in hit.entry.fields)
                    )
                    if "truncated" in hit.entry.fields:
                        out.append(hit)
                        continue
                    place = Place(place.path, len(lines), len(lines))
                hit = _at(hit, lines, place)
                hit = named_holder(locator, repo_id, hit, place, alone)
        out.append(hit)
    return out, "; ".join(notes) or None


def quoted_line(path: str, place: Place, lines: Sequence[str]) -> tuple[Place, str | None]:
    """The place of a traceback frame whose line holds other code than it quotes moved to the
    line holding that code nearest it, and a note saying so; else the place as it is, with a
    note saying its line holds other code when that code is nowhere in the file. A trace
    from another version of the file (an installed release) names lines that have moved:
    QA on Textualize/rich, `rich/table.py`, line 560 quoting `width_ranges = [` pointed at
    line 560 of the checkout, `max_width,`; that code is at 529."""
    quoted = place.quoted
    code = _code(quoted)
    if not quoted or (place.first <= len(lines) and _code(lines[place.first - 1]) == code):
        return place, None
    holding = [n for n, line in enumerate(lines, 1) if _code(line) == code]
    if not holding:  # the code is gone: the line stays, and the note says it holds other code
        if place.first > len(lines):
            return place, None
        note = (
            f"{path} line {place.first} holds other code than the traceback quotes "
            f"(`{_cut(quoted)}`): the traceback comes from another version of the file"
        )
        return place, note
    line = min(holding, key=lambda n: (abs(n - place.first), n))
    note = (
        f"{path} line {place.first} of the traceback is line {line} here "
        f"(`{_cut(quoted)}`): the traceback comes from another version of the file"
    )
    return Place(place.path, line, line, quoted), note


def named_holder(
    locator: HitLocator, repo_id: str, hit: t.SearchHit, place: Place, alone: bool
) -> t.SearchHit:
    """`hit` with the declaration holding `place` as its first `symbol:` reason; of a query
    that is only the place (`alone`), the only one: the others matched the path's words. QA
    on hyperium/hyper: `src/proto/h1/conn.rs:325`, inside Conn.poll_read_head, showed
    `symbol:Conn.set_h1_parser_config` (the path's `h1`) and nothing of poll_read_head."""
    path = hit.entry.path or ""
    holder = holding(locator.symbols_of(repo_id, path), place)
    kept = [r for r in hit.reasons if not (alone and r.startswith(SYMBOL_REASON))]
    if holder is None:
        return hit.model_copy(update={"reasons": kept})
    packages = locator.packages(repo_id, path) if path.endswith((".py", ".pyi")) else set()
    named = display_reason(SYMBOL_REASON + holder.fq_name, path, packages)
    rest = [r for r in kept if r != named]
    # before the other `symbol:` reasons, else before `content-match` (the reasons' order):
    # appended after it, it came last (QA on pallets/werkzeug, `serving.py line 323`)
    at = next(
        (i for i, r in enumerate(rest) if r.startswith(SYMBOL_REASON) or r == CONTENT_REASON),
        len(rest),
    )
    return hit.model_copy(update={"reasons": [*rest[:at], named, *rest[at:]][:MAX_REASONS]})


def holding(symbols: Sequence[Declared], place: Place) -> Declared | None:
    """The innermost declaration holding the place's lines, else the one holding most of
    them (of those alike, the innermost): QA on valyala/fasthttp, `bytesconv.go:120-130`
    named AppendHTTPDate, whose closing brace is line 120, not ParseHTTPDate (122-128)."""
    around = [s for s in symbols if s.start_line <= place.first and place.last <= s.end_line]
    if around:
        return min(around, key=lambda s: s.end_line - s.start_line)

    def held(s: Declared) -> int:
        return min(s.end_line, place.last) - max(s.start_line, place.first) + 1

    overlapping = [s for s in symbols if held(s) > 0]
    if not overlapping:
        return None
    return max(overlapping, key=lambda s: (held(s), s.start_line - s.end_line))


def _past_end(path: str, place: Place, count: int, truncated: bool) -> str:
    asked = (
        f"{path}:{place.first}"
        if place.first == place.last
        else (f"{path}:{place.first}-{place.last}")
    )
    if truncated:
        return (
            f"{asked} is past the text stored for it (its first {count} lines): open the file there"
        )
    return f"{asked} is past the file's end ({count} lines): its hit shows the last line"


def _at(hit: t.SearchHit, lines: Sequence[str], place: Place) -> t.SearchHit:
    last = min(place.last, len(lines))
    named = range(place.first, last + 1)
    shown = [n for n in named if _is_code(lines[n - 1])][:SNIPPET_LINES]
    if not shown:  # blank lines or a brace alone: the code nearest them, above and below
        # (QA on gorilla/mux: `route.go:613`, a function's closing brace, showed `613: }`)
        braces = [n for n in named if lines[n - 1].strip()][:1]
        around = (_worded(lines, place.first, -1), *braces, _worded(lines, last, 1))
        shown = [n for n in around if n]
    snippet = "\n".join(f"{n}: {_cut(lines[n - 1].strip())}" for n in shown) or None
    return hit.model_copy(update={"startLine": place.first, "endLine": last, "snippet": snippet})


def _is_code(line: str) -> bool:
    """Whether the line holds more than whitespace and brackets (`}`, `});`, `]`), or than
    the marks closing a docstring or comment (three quotes, `*/`: QA on Textualize/rich,
    mypy's `rich/progress.py:1075: error: ...` showed the closing quotes alone)."""
    return line.strip(_BRACKETS).strip(_QUOTES) not in _CLOSING_MARKS


def _worded(lines: Sequence[str], line: int, step: int) -> int | None:
    """The nearest line from `line` in direction `step` that holds more than whitespace and
    brackets, within NEAR_BLANK lines."""
    n = line + step
    while 1 <= n <= len(lines) and abs(n - line) <= NEAR_BLANK:
        if _is_code(lines[n - 1]):
            return n
        n += step
    return None


# a trailing comment, which versions add and drop (`# pragma: no cover`, `# type: ignore`)
_TRAILING_COMMENT = re.compile(r"\s+#.*$")


def _code(line: str) -> str:
    """A line's code, without its indent and trailing comment: QA on fastapi/typer, a frame
    quoting `raise AssertionError("A _click.Parameter should be returned")` was not found
    at line 1794, which ends `# pragma: no cover`."""
    return _TRAILING_COMMENT.sub("", line.strip())


def _cut(text: str) -> str:
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"
