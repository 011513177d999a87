"""An overview question's root README shown from its title: the heading naming the project and
the first line of text after it (`# eza`, `A modern replacement for ls.`).

A README's head is often no text about the project: an SPDX comment, a logo, badges, a
sponsor's block. QA on eza-community/eza, whose README opens with an SPDX comment and a
sponsor's block above `# eza` (line 21), pointed `what does eza do` at the sponsor's links
(lines 13-18), which hold `eza` in their addresses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_SCAN_LINES = 120  # of a README's opening read for its title
_HEADING = re.compile(r"^\s{0,3}#[ \t]+\S|<h1\b", re.IGNORECASE)
_SETEXT = re.compile(r"^\s{0,3}=+\s*$")  # `Flake8` over a `====` line
# a README's tagline where it has no title: an HTML paragraph on one line holding text, no
# markup (axios: `<p align="center">Promise based HTTP client for the browser and node.js</p>`
# below a sponsors' table and a logo), of TAGLINE_WORDS words at least
_TAGLINE = re.compile(r"^\s*<p\b[^>]*>\s*(?P<text>[^<>]+?)\s*</p>\s*$", re.IGNORECASE)
TAGLINE_WORDS = 3
# lines that are no text about the project: markup, badges, images, links alone, comments
_NO_TEXT = re.compile(r"^\s*(?:<|!\[|\[!\[|\[[^\]]*\]\([^)]*\)\s*$|-->|#|=+\s*$|-+\s*$)")


def title_lines(lines: Sequence[str], most: int) -> list[int]:
    """The 1-based numbers of a README's title line (its first `#` heading or `<h1>`, or a
    line over `====`) and the first lines of text after it, `most` in all; with no title in
    its opening, its tagline's line (_tagline), else none."""
    title = next(
        (
            n
            for n, line in enumerate(lines[:_SCAN_LINES], start=1)
            if _HEADING.search(line)
            or (n < len(lines) and _SETEXT.match(lines[n]) and line.strip())
        ),
        None,
    )
    if title is None:
        return _tagline(lines)
    text = [
        n
        for n, line in enumerate(lines[title : title + _SCAN_LINES], start=title + 1)
        if line.strip() and not _NO_TEXT.match(line)
    ]
    return [title, *text][:most]


def _tagline(lines: Sequence[str]) -> list[int]:
    """The line of a README's tagline (_TAGLINE) in its opening, for a README with no title;
    none when there is none."""
    for n, line in enumerate(lines[:_SCAN_LINES], start=1):
        found = _TAGLINE.match(line)
        if found is not None and len(found["text"].split()) >= TAGLINE_WORDS:
            return [n]
    return []
