"""A Markdown file's outline: its headings, each with the lines of its section.

The symbol extractors declare nothing in prose, so outline answered a README or a docs page
with no symbols at all (QA on sharkdp/fd: `outline README.md` was empty), and an agent had to
read the whole file to find the section it wanted. The headings are read from the stored body
when the outline is asked for, not stored as declarations: as symbols their words would count
in search's symbol-name field and lift documents above the code a change request is about.

A heading is an ATX line (`## Installation`, up to three spaces in) or a setext one (a line of
text over `===` or `---`); lines inside fenced code blocks (```` ``` ```` or `~~~`) and a YAML
front matter block are not headings. A section runs to the line before the next heading of
the same or a higher level (fewer `#`), else to the end of the stored text.
"""

from __future__ import annotations

import re

from streams.stores.views.symbols import SymbolRow

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx")
HEADING_KIND = "Other"  # the reference's kinds name code; a section is none of them
MAX_HEADING_CHARS = 200  # of a heading's text kept as its name

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# a line that cannot be a setext heading's text: a list item, quote, table row or break
_NOT_SETEXT_TEXT = re.compile(r"^ {0,3}(?:[-*+>|]|\d+[.)]\s|#)")


def is_markdown(path: str) -> bool:
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def markdown_headings(repo_id: str, path: str, body: str) -> list[SymbolRow]:
    """The headings of `body` as outline rows: name and fq name the heading's text, the
    lines those of its section, no signature (it would say the text again; the sections'
    lines show how they nest)."""
    lines = body.split("\n")
    if body.endswith("\n"):
        lines.pop()
    found: list[tuple[int, int, str]] = []  # line, level, text
    fence: str | None = None
    start = _after_front_matter(lines)
    for number in range(start, len(lines) + 1):
        line = lines[number - 1]
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        heading = _heading(lines, number)
        if heading is not None:
            level, text = heading
            atx = _ATX.match(line) is not None  # else the underline: the text is the line above
            found.append((number if atx else number - 1, level, text))
    return _sections(repo_id, path, found, len(lines))


def _after_front_matter(lines: list[str]) -> int:
    """The first line past a YAML front matter block opening the file (`---` ... `---`)."""
    if lines and lines[0].strip() == "---":
        for number in range(2, len(lines) + 1):
            if lines[number - 1].strip() in ("---", "..."):
                return number + 1
    return 1


def _heading(lines: list[str], number: int) -> tuple[int, str] | None:
    """(level, text) of the heading line `number` ends, else None: an ATX heading on it, or
    a setext underline under a line of text."""
    line = lines[number - 1]
    atx = _ATX.match(line)
    if atx is not None:
        text = (atx.group(2) or "").strip()
        return (len(atx.group(1)), text[:MAX_HEADING_CHARS]) if text else None
    under = _SETEXT.match(line)
    if under is None or number < 2:
        return None
    above = lines[number - 2]
    if not above.strip() or _NOT_SETEXT_TEXT.match(above) or _SETEXT.match(above):
        return None
    if number >= 3 and lines[number - 3].strip() and not _ATX.match(lines[number - 3]):
        return None  # the last line of a paragraph: its text is more than one line
    return (1 if under.group(1)[0] == "=" else 2), above.strip()[:MAX_HEADING_CHARS]


def _sections(
    repo_id: str, path: str, found: list[tuple[int, int, str]], total: int
) -> list[SymbolRow]:
    rows: list[SymbolRow] = []
    for i, (line, level, text) in enumerate(found):
        end = next((later - 1 for later, lv, _ in found[i + 1 :] if lv <= level), total)
        rows.append(SymbolRow(repo_id, path, text, text, HEADING_KIND, line, end, "", ""))
    return rows
