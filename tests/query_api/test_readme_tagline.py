"""A root README with no title (no `#` heading, `<h1>` or `====` line) is shown from its
tagline, the first HTML paragraph holding text (`<p align="center">Promise based HTTP client
for the browser and node.js</p>`). QA on axios/axios, whose README opens with a sponsors'
table under an `<h3>` and a logo: `what is axios` and `what does this project do` pointed
README.md at the sponsors' table rows (lines 2-4)."""

from __future__ import annotations

from query_api.retrieval.readme_title import title_lines

SPONSORS = (
    '<h3 align="center"> Gold sponsors <br> </h3> <table align="center"><tr><td>\n'
    '</td><td align="center"> <a href="https://example.com/?utm_source=kite">A sponsor</a>\n'
    "</td></tr></table>\n\n"
    "<!--<div>marker</div>-->\n<br><br>\n"
    '<div align="center">\n   <a href="https://kite.dev"><img src="logo.svg" /></a><br>\n'
    "</div>\n\n"
    '<p align="center">Promise based HTTP client for the browser and node.js</p>\n\n'
    '<p align="center">\n    <a href="https://kite.dev/"><b>Website</b></a>\n</p>\n\n'
    "## Table of Contents\n\n  - [Features](#features)\n"
)


def test_a_readme_without_a_title_is_shown_from_its_tagline() -> None:
    lines = SPONSORS.split("\n")
    tagline = next(n for n, line in enumerate(lines, 1) if "Promise based" in line)
    assert title_lines(lines, 3) == [tagline]


def test_a_title_still_comes_first() -> None:
    lines = ["<p>A logo caption here</p>", "", "# kite", "", "An HTTP client."]
    assert title_lines(lines, 3) == [3, 5]


def test_a_paragraph_of_markup_alone_is_no_tagline() -> None:
    lines = ['<p align="center">', '  <a href="x"><img src="b.svg"></a>', "</p>"]
    assert title_lines(lines, 3) == []
