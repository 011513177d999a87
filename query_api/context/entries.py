"""A candidate file rendered as a bundle entry at a level: its whole body, the spans that
matter for the task under a content cap, its outline, or its path (spec §3.7), with its units
and their receipts. The packer (bundle.py, plan.py) decides which rendering each file gets;
this module only renders one, so every plan and every probe renders a file the same way.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator, Sequence

from processors.licence_header import MAX_HEADER_LINES, after_licence
from processors.symbols.languages.python import import_name
from query_api.context.candidates import Candidate
from query_api.context.count_memo import CountMemo
from query_api.context.entry_fields import bundle_reasons, declared_within, unit_key
from query_api.context.receipts import content_digest, receipt_of
from query_api.context.spans import (
    FILL_LINES,
    SPAN_LINES,
    Focus,
    Span,
    select_spans,
    spans_at_place,
    widened,
)
from query_api.retrieval.hit_details import HitLocator
from query_api.retrieval.named_lines import place_of, quoted_line
from query_api.retrieval.passages import passage_lines
from query_api.retrieval.shown_reasons import display_reasons
from query_api.symbols.kotlin_locals import without_locals
from query_api.symbols.overloads import declared_name
from query_api.symbols.shown_signatures import shown_signature
from schemas import bundle as b
from streams.redact import redact
from streams.stores.views.read import ContentRow
from streams.stores.views.store import ViewStore
from streams.stores.views.symbols import SymbolRow, SymbolViews

WHOLE_BODY_TOKENS = 1500  # larger files are sliced into spans instead of sent whole
MIN_SPAN_TOKENS = 24  # a share smaller than this sends the file's path
PAST_DECLARATIONS = 12  # outline lines sent for a hit past a file's stored text
# one answer's reads of a file's declarations: the plan renders a file several times (spans,
# units, shares), and a generated module's 30,000 declarations are too many for the views'
# shared cache, so each render read and decoded them again (10 s for one bundle)
_ANSWER_DECLARATIONS: contextvars.ContextVar[dict[tuple[str, str], list[SymbolRow]] | None] = (
    contextvars.ContextVar("answer_declarations", default=None)
)


def _past_licence(body: str, focus: Focus) -> int:
    """The first line after the licence header `body` opens with (1 with none, or for a task
    naming a licence or copyright): a small file was sent whole, header and all. QA on
    sinclairzx81/typebox, whose every file opens with the 27-line MIT licence: a bundle at
    8,192 tokens spent a sixth of its content on five copies of it, and a 40-line module of
    re-exports was two thirds licence."""
    if any(stem.startswith(("licen", "copyright")) for stem in focus.stems):
        return 1
    return after_licence(body.split("\n", MAX_HEADER_LINES + 2)[: MAX_HEADER_LINES + 2])


class EntryRenderer:
    """Renders one candidate file as an entry, reading its stored body and declarations."""

    def __init__(self, views: ViewStore, count: CountMemo) -> None:
        self.views = views
        self.count = count
        self.symbols = SymbolViews(views)
        self.locator = HitLocator(views)

    @contextlib.contextmanager
    def answer(self) -> Iterator[None]:
        """One answer's scope: a file's declarations are read once in it (worker threads the
        answer starts share the memo through the context they copy)."""
        token = _ANSWER_DECLARATIONS.set({})
        try:
            yield
        finally:
            _ANSWER_DECLARATIONS.reset(token)

    def declarations(self, repo_id: str, path: str) -> list[SymbolRow]:
        """The file's declarations, read once per answer (do not change the list)."""
        memo = _ANSWER_DECLARATIONS.get()
        if memo is None:
            return self.symbols.symbols_of_file(repo_id, path)
        found = memo.get((repo_id, path))
        if found is None:
            found = memo[(repo_id, path)] = self.symbols.symbols_of_file(repo_id, path)
        return found

    def spans(
        self,
        repo_id: str,
        path: str,
        body: str,
        focus: Focus,
        max_lines: int = SPAN_LINES,
        hot: tuple[int, int] | None = None,
        hit: tuple[int, int] | None = None,
    ) -> list[tuple[int, int, str | None]]:
        """The line spans of a large file worth sending for the task (select_spans; `hot`:
        the lines of its best passage)."""
        lines = body.split("\n")
        if body.endswith("\n"):  # the newline ends the last line; it starts none
            lines.pop()
        symbols = [  # a declaration past the stored body has no lines here to send
            s for s in self.declarations(repo_id, path) if s.start_line <= len(lines)
        ]
        fill = max(FILL_LINES, max_lines)  # beyond SPAN_LINES only where a share holds it
        place = place_of(focus.places, path)
        if place is not None:  # a trace from another version: where the code it quotes is
            place = quoted_line(path, place, lines)[0]
        at_place = spans_at_place(symbols, lines, place, max_lines, fill) if place else None
        if at_place is not None:
            return at_place
        return select_spans(
            symbols,
            len(lines),
            focus.stems,
            max_lines,
            fill,
            lines,
            focus.spans,
            hot,
            focus.qualified,
            hit,
            focus.used,
            focus.used_calls,
            focus.defined,
            focus.spelled,
        )

    def slices(
        self,
        repo_id: str,
        cand: Candidate,
        row: ContentRow,
        full: int,
        focus: Focus,
        cap: int | None,
        whole: bool = False,
        chosen: Sequence[Span] | None = None,
    ) -> tuple[list[str], list[tuple[b.UnitKind, str | None]], list[tuple[int, int]], bool]:
        """(lines, units, ranges, whole) of a `slices` rendering under a content cap: the
        whole body when it is small enough (or `whole` asks for it), else the spans that
        matter, as many lines of them as the cap holds (nothing when it holds too few);
        `chosen` spans are sent as they are."""
        body = row.body
        total = body.count("\n") + (0 if body.endswith("\n") else 1)
        if chosen:
            return self._sent(body, total, list(chosen), row.truncated)
        small = full <= WHOLE_BODY_TOKENS or (whole and cap is None)
        if small and (cap is None or full <= cap):
            top = _past_licence(body, focus)
            if 1 < top <= total:  # the same licence text in every file: what follows it
                return self._sent(body, total, [(top, total, None)], row.truncated)
            return [body], [("span", None)], [(1, total)], not row.truncated
        if cap is not None and cap < MIN_SPAN_TOKENS:
            return [], [], [], False
        max_lines = SPAN_LINES
        if cap is not None:  # a share decides: one larger than SPAN_LINES holds more
            per_line = max(1.0, full / max(1, total))
            max_lines = int(cap / per_line)
        all_lines = body.split("\n")
        hot = passage_lines(repo_id, cand.path, body, cand.passage)
        for _ in range(6):
            if max_lines < 1:
                break
            spans = self.spans(repo_id, cand.path, body, focus, max_lines, hot, cand.lines)
            lines = ["\n".join(all_lines[a - 1 : z]) for a, z, _ in spans]
            used = self.count("\n".join(lines))
            if cap is None or used <= cap:
                return self._sent(body, total, spans, row.truncated, lines)
            # shrink from the lines the spans hold: a selection shorter than max_lines would
            # otherwise come back unchanged until the tries run out
            held = sum(z - a + 1 for a, z, _ in spans)
            max_lines = min(held - 1, int(held * cap / used))
        return [], [], [], False

    @staticmethod
    def _sent(
        body: str,
        total: int,
        spans: list[Span],
        truncated: bool,
        lines: list[str] | None = None,
    ) -> tuple[list[str], list[tuple[b.UnitKind, str | None]], list[tuple[int, int]], bool]:
        """(lines, units, ranges, whole) of `spans` of `body` (`lines`: their text, when
        the caller has it)."""
        if len(spans) == 1 and spans[0][0] == 1 and spans[0][1] >= total:
            # spans grown over the whole file: sent as the whole body it is, one unit and
            # receipt with the whole-file path's (a session then knows it)
            return [body], [("span", None)], [(1, total)], not truncated
        if lines is None:
            all_lines = body.split("\n")
            lines = ["\n".join(all_lines[a - 1 : z]) for a, z, _ in spans]
        units: list[tuple[b.UnitKind, str | None]] = [("span", y) for _, _, y in spans]
        return lines, units, [(a, z) for a, z, _ in spans], False

    def widened(
        self, repo_id: str, path: str, spans: Sequence[Span], wanted: int, stems: frozenset[str]
    ) -> list[Span]:
        """`spans` of the file grown on both sides to `wanted` lines together (spans.widened)."""
        row = self.views.get_content(repo_id, path)
        if row is None or not spans:
            return list(spans)
        lines = row.body.split("\n")
        if row.body.endswith("\n"):
            lines.pop()
        return widened(spans, len(lines), wanted, lines, stems)

    def render(
        self,
        repo_id: str,
        cand: Candidate,
        level: b.Detail,
        focus: Focus,
        cap: int | None = None,
        whole: bool = False,
        chosen: Sequence[Span] | None = None,
    ) -> tuple[b.BundleEntry, list[str], str]:
        """The entry at `level`, its content at most `cap` tokens (slices; else a pointer),
        its lines and the stored body's hash; `whole` sends a large file's whole stored body
        rather than its spans. The entry names the hash only when it holds that whole body,
        the one delivery a `known` claim can later name: a sliced entry's receipts say what
        it sent, and its hash would be envelope an agent has no use for."""
        row = self.views.get_content(repo_id, cand.path)
        body = row.body if row is not None else ""
        full = (
            (row.token_count if row.token_count is not None else self.count(body)) if row else None
        )
        content_hash = content_digest(body) if row is not None else content_digest(cand.path)
        units: list[tuple[b.UnitKind, str | None]] = []  # (kind, symbol) per line of content
        lines: list[str] = []
        ranges: list[tuple[int, int]] = []
        past = self.past_outline(repo_id, cand, row) if level == "slices" and not chosen else []
        if past:  # the hit's lines are not stored: its declarations' heads, not other spans
            lines, units = [line for line, _ in past], [unit for _, unit in past]
        elif level == "slices" and row is not None and body:
            lines, units, ranges, _ = self.slices(
                repo_id, cand, row, full or 0, focus, cap, whole, chosen
            )
        elif level == "outline":
            lines, units = self.outline(repo_id, cand.path)
        if not lines:
            lines, units, ranges = [cand.path], [("pointer", None)], []
        # credentials are redacted here, before the counting, not only on the way out: the
        # answer's token counts are then those of what it sends, and a body the redaction
        # changed is not the stored one (no contentHash, no possession for `known`)
        lines = [redact(line) for line in lines]
        content = "\n".join(lines)
        whole_body = row is not None and content == body
        packages = self.locator.packages(repo_id, cand.path) if cand.path.endswith(".py") else set()
        made_units = self.units(
            repo_id, cand.path, content_hash, units, lines, ranges, whole_body, packages
        )
        # the packed declarations by their fq names and as code imports them: search names
        # a hit's reasons the second way
        imported = {import_name(sym, cand.path, packages) for _, sym in units if sym}
        packed = {sym for _, sym in units if sym} | imported | set(map(declared_name, imported))
        if ranges and not whole_body:
            packed |= declared_within(self.declarations(repo_id, cand.path), ranges)
        # named as search names them: as the file's code imports them
        reasons = display_reasons(
            bundle_reasons(cand.reasons, packed, whole_body), cand.path, packages
        )
        # each span's unit names its lines: the entry's would not; a whole body's are its all
        several = len(ranges) > 1 or whole_body
        entry = b.BundleEntry(
            path=cand.path,
            score=round(cand.score, 4),  # more digits say nothing and cost tokens
            reasons=reasons,
            tokenCount=self.count(content),
            fullReadTokenCount=full,
            content=content,
            contentHash=content_hash if whole_body else None,
            units=made_units,
            startLine=ranges[0][0] if ranges and not several else None,
            endLine=ranges[-1][1] if ranges and not several else None,
            truncatedAtLine=body.count("\n") + 1 if row is not None and row.truncated else None,
            linkedMemory=cand.linked,
        )
        stored = entry.truncatedAtLine
        if cand.lines is not None and stored is not None and cand.lines[0] > stored:
            entry._hit_past = cand.lines  # the text says so: answers/text.py
        if level == "slices" and ranges and not whole_body:
            entry._spans = tuple(
                (a, z, sym) for (a, z), (_, sym) in zip(ranges, units, strict=True)
            )
        return entry, lines, content_hash

    def windows(
        self,
        repo_id: str,
        path: str,
        units: list[tuple[b.UnitKind, str | None]],
        ranges: list[tuple[int, int]],
        whole: bool,
    ) -> set[int]:
        """The spans of `units` that hold only part of the declaration they name (a window
        on a declaration longer than the file's share): keyed by their lines, not the
        declaration, since another call may send another window of it. A session sent
        gorm's `setupValuerAndSetter` 933-993 was told it held 669-721 (`reused`)."""
        if whole:
            return set()
        extent: dict[str, tuple[int, int]] = {}
        for sym in self.declarations(repo_id, path):
            extent.setdefault(sym.fq_name, (sym.start_line, sym.end_line))
        out: set[int] = set()
        for i, (kind, fq) in enumerate(units):
            if kind != "span" or fq is None or i >= len(ranges):
                continue
            start, end = extent.get(fq, (0, 0))
            if not (ranges[i][0] <= start and end <= ranges[i][1]):
                out.add(i)
        return out

    def outline(
        self, repo_id: str, path: str
    ) -> tuple[list[str], list[tuple[b.UnitKind, str | None]]]:
        """An `outline` rendering: one line per declaration, its first line's number and its
        signature (`42: def wrap(self, width)`), in line order: without the numbers an agent
        had to ask the outline tool again to read one (a QA pass on mswjs/msw). A Kotlin
        function's local `val`s are left out (kotlin_locals): they outline nothing."""
        declared = without_locals(self.declarations(repo_id, path))
        rows = sorted(declared, key=lambda s: (s.start_line, s.fq_name))
        lines = [outline_line(sym) for sym in rows]
        return lines, [("outline", sym.fq_name) for sym in rows]

    def past_outline(
        self, repo_id: str, cand: Candidate, row: ContentRow | None
    ) -> list[tuple[str, tuple[b.UnitKind, str | None]]]:
        """The outline lines (`2361: pub struct StreamDeserializer<'de, R, T>`) of the
        declarations holding or starting in the lines of a search hit past the file's stored
        text (at most PAST_DECLARATIONS), when it lies there; none otherwise. Those lines
        cannot be sent, and the spans sent instead were others the task did not ask for: QA
        on serde-rs/json, `where is StreamDeserializer defined` at 2,000 tokens sent 84
        lines of src/de.rs's ParserNumber, the declaration being at 2361, past line 1994."""
        if row is None or not row.truncated or cand.lines is None:
            return []
        start, end = cand.lines
        if start <= row.body.count("\n") + 1:
            return []
        near = [
            sym
            for sym in without_locals(self.declarations(repo_id, cand.path))
            if sym.start_line <= end and sym.end_line >= start and not _testing(sym.fq_name)
        ]
        rows = sorted(near, key=lambda s: (s.start_line, s.fq_name))[:PAST_DECLARATIONS]
        return [(outline_line(sym), ("outline", sym.fq_name)) for sym in rows]

    def module_prefix(self, repo_id: str, path: str) -> str:
        """What every fq name declared in `path` starts with before its top-level name
        (`src.tox.session.env_select.`, `org.jsoup.parser.`; empty where top-level names are
        their own fq names): the shortest fq name less its declaration's own name."""
        prefixes = [
            s.fq_name[: len(s.fq_name) - len(s.name)]
            for s in self.declarations(repo_id, path)
            if s.name and s.fq_name.endswith(s.name)
        ]
        prefix = min(prefixes, key=len, default="")
        return prefix if prefix.endswith((".", "::", "/")) else ""

    def units(
        self,
        repo_id: str,
        path: str,
        content_hash: str,
        units: list[tuple[b.UnitKind, str | None]],
        lines: list[str],
        ranges: list[tuple[int, int]],
        whole: bool,
        packages: set[str],
    ) -> list[b.Unit]:
        """One unit per span (or outline line) of content, each with its receipt and token
        count. An outline unit names its declaration as code imports it (the reference's fq
        name); a span names it as the file declares it (`Class.method`, an overload without
        the types that tell it from its siblings): the entry's path says the rest."""
        several = len(ranges) > 1  # one span's lines are the entry's own
        prefix = self.module_prefix(repo_id, path) if any(k == "span" for k, _ in units) else ""
        windows = self.windows(repo_id, path, units, ranges, whole)

        def named(kind: b.UnitKind, sym: str) -> str:
            if kind != "span":
                return import_name(sym, path, packages)
            if prefix and sym.startswith(prefix):
                return declared_name(sym[len(prefix) :])
            return declared_name(import_name(sym, path, packages))

        return [
            b.Unit(
                receipt=receipt_of(
                    repo_id,
                    path,
                    content_hash,
                    kind,
                    unit_key(kind, None if i in windows else sym, ranges, i, whole),
                ),
                kind=kind,
                symbol=named(kind, sym) if sym else None,
                tokenCount=self.count(text),
                startLine=ranges[i][0] if several else None,
                endLine=ranges[i][1] if several else None,
            )
            for i, ((kind, sym), text) in enumerate(zip(units, lines, strict=True))
        ]


def outline_line(sym: SymbolRow) -> str:
    """A declaration as an outline line: its first line's number and its signature as shown
    (symbols/shown_signatures.py), on one line."""
    return f"{sym.start_line}: {' '.join(shown_signature(sym.signature or sym.fq_name).split())}"


# an inline test module's names (Rust's `mod tests`) and test functions: at a change request's
# hit past the stored text they are no code to change (QA on clap: `Remove extra allocation`
# sent arg.rs as the heads `test` and `test.option_display_...`, 27 tokens of its first slot)
_TEST_PART = re.compile(r"^(?:tests?|test_\w*)$")


def _testing(fq_name: str) -> bool:
    """Whether a declaration is a test or lies in a test module, by its qualified name."""
    return any(_TEST_PART.match(part) for part in re.split(r"\.|::", fq_name))
