"""`where is the man page`: the project's manual pages, named by their section's extension
(streams/stores/views/man_pages.py). QA on sharkdp/hyperfine answered CICD.yml's `# Man page`
comment first and doc/hyperfine.1 nowhere."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

FILES = {
    "doc/timeit.1": ".TH TIMEIT 1\n.SH NAME\ntimeit \\- a command-line benchmarking tool\n",
    "doc/screenshot.png.txt": "the screenshot of a page\n",
    "src/main.rs": "fn main() {}\n",
    "src/h1/page.rs": "pub struct Page;\n",
    ".github/workflows/ci.yml": "# Man page\n- run: cp doc/timeit.1 dist/\n",
    "CHANGELOG.md": "- Major update of the man page\n",
}


@pytest.mark.parametrize(
    "query", ["where is the man page", "where is the manpage?", "where are the man pages"]
)
def test_the_man_page_is_named_by_its_section(tmp_path: Path, query: str) -> None:
    with views_holding(tmp_path, FILES) as store:
        assert store.read(partial(asked_file, repo_id="r", query=query)) == ["doc/timeit.1"]


def test_man_pages_written_in_markdown_or_scdoc(tmp_path: Path) -> None:
    files = {"man/eza.1.md": "# eza(1)\n", "man/eza_colors.5.md": "# eza_colors(5)\n", **FILES}
    del files["doc/timeit.1"]
    with views_holding(tmp_path, files) as store:
        found = store.read(partial(asked_file, repo_id="r", query="where is the man page"))
    assert found == ["man/eza.1.md", "man/eza_colors.5.md"]


def test_a_question_about_a_flag_in_it_is_no_such_question(tmp_path: Path) -> None:
    with views_holding(tmp_path, FILES) as store:
        query = "where is the man page for --warmup"
        assert "doc/timeit.1" not in store.read(partial(asked_file, repo_id="r", query=query))
