"""A question naming a language (`where is the CSS for the HTML report`, `which JavaScript
file handles the keyboard shortcuts`) asks for the few files of it a project keeps beside its
code. QA on nedbat/coveragepy: both ranked coverage/html.py first (`css_class`, the report's
code), style.scss third and coverage_html.js fourth."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.language_files import language_files
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig
from tests.streams.symbol_records import views_holding

pytestmark = pytest.mark.anyio

REPORT = (
    '"""The HTML report."""\n\n\n'
    "class HtmlReporter:\n"
    '    """Write the HTML report: pages, their css_class, the keyboard shortcuts help."""\n\n'
    "    def css_class(self, line):\n"
    '        return "run" if line else "mis"  # the CSS class of a line in the HTML report\n\n'
    "    def report(self, morfs):\n"
    '        """Write the HTML report: one page per file, the JavaScript and the CSS."""\n'
    "        return [self.css_class(m) for m in morfs]\n"
)
FILES = {
    "tool/html.py": REPORT,
    "tool/htmlfiles/style.css": "/* the report's styles */\n.run { color: green; }\n",
    "tool/htmlfiles/report.js": (
        "// Keyboard shortcuts for the report pages\n"
        "document.addEventListener('keydown', (e) => { if (e.key === 'j') next(); });\n"
    ),
    "docs/_static/site.css": "/* the documentation site */\nbody { margin: 0; }\n",
    "tests/js/tests.js": "test('keyboard shortcuts', () => {});\n",
    # the report's templates, and a doc's copies of its output (an HTML file is a doc)
    "tool/htmlfiles/index.html": "<html><title>{{ title }}</title>{% for f in files %}\n",
    **{f"docs/sample_html/page{n}.html": f"<html>coverage report {n}</html>\n" for n in range(9)},
}


async def test_a_question_naming_a_language_ranks_its_files_first(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        for query, wanted in (
            ("where is the CSS for the HTML report", "tool/htmlfiles/style.css"),
            (
                "which JavaScript file handles the keyboard shortcuts in the HTML report",
                "tool/htmlfiles/report.js",
            ),
        ):
            found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
            paths = [h["entry"]["path"] for h in found["hits"]]
            assert paths[0] == wanted, (query, paths)


def test_the_files_holding_the_subject_are_named(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        named = partial(language_files, repo_id="r")
        assert store.read(partial(named, query="where is the CSS for the HTML report")) == {
            "tool/htmlfiles/style.css"
        }
        # HTML with templates: the project's own, not a doc's copies (QA on nedbat/coveragepy)
        asked = "where are the HTML report templates"
        assert store.read(partial(named, query=asked)) == {"tool/htmlfiles/index.html"}
        # a question about the docs' stylesheet names the docs' (docs/ in either number)
        asked = "where is the stylesheet for the docs"
        assert store.read(partial(named, query=asked)) == {"docs/_static/site.css"}
        assert store.read(partial(named, query="where is the HTML report written")) == set()
        # a change request, and a language the project is mostly written in, name none
        assert store.read(partial(named, query="Fix the CSS for the HTML report")) == set()
        # a code name holding a language's name is no language (QA: `extra_css` asked for CSS)
        for query in ("where is the extra_css option used", "where is report.js loaded"):
            assert store.read(partial(named, query=query)) == set(), query
        many = {f"web/page{n}.js": f"// page {n}\n" for n in range(12)}
        (tmp_path / "many").mkdir()
        with views_holding(tmp_path / "many", many) as web:
            assert web.read(partial(language_files, repo_id="r", query="where is the js")) == set()
