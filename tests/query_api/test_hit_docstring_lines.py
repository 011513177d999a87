"""A hit's lines, of those matching the query as well inside one declaration, are the code's,
not a docstring's, unless the query asks for prose (query_api/retrieval/hit_details.
locate_in_file, LinePreference.code_first). QA on PyCQA/flake8: `where is the
--max-line-length option registered` and `what does the --benchmark option do` pointed
main/options.py at register_default_options' docstring, which lists every option
(``- ``--max-line-length`` ``), not at `add_option("--max-line-length", ...)`."""

from __future__ import annotations

from query_api.retrieval.hit_details import locate_in_file, locating_terms, query_terms
from streams.stores.views.symbols import SymbolRow

# PyCQA/flake8's src/flake8/main/options.py, shortened: a declaration too long to be a hit's
# range, so the hit is a window around its best line
OTHERS = [f'    add_option("--other-{i}", help="another option")' for i in range(40)]
OPTIONS = "\n".join(
    [
        "def register_default_options(option_manager):",  # 1
        '    """Register the default options on our OptionManager.',  # 2
        "",
        "    The default options include:",  # 4
        "",
        "    - ``--max-line-length``",  # 6
        "    - ``--benchmark``",  # 7
        '    """',  # 8
        "    add_option = option_manager.add_option",  # 9
        *OTHERS,  # 10-49
        "    add_option(",  # 50
        '        "--max-line-length",',  # 51
        "        type=int,",
        "    )",
        "    add_option(",  # 54
        '        "--benchmark",',  # 55
        '        action="store_true",',
        "    )",  # 57
    ]
)
PATH = "pkg/main/options.py"
SYMBOLS = [
    SymbolRow(
        "r", PATH, "options.register_default_options", "register_default_options", "Function",
        1, 57, "d", "",
    ),
]  # fmt: skip


def test_the_code_writing_a_name_wins_over_the_docstring_listing_it() -> None:
    for query, line in (
        ("where is the --max-line-length option registered", 51),
        ("what does the --benchmark option do", 55),
    ):
        found = locate_in_file(OPTIONS, SYMBOLS, query_terms(query))
        assert found is not None and line in _shown(found.snippet), (query, found)
        assert found.start_line > 8, (query, found)  # below the docstring


def test_a_query_asking_for_prose_keeps_the_docstring() -> None:
    terms = locating_terms(query_terms("where is --benchmark documented"), about_docs=True)
    found = locate_in_file(OPTIONS, SYMBOLS, terms)
    assert found is not None and 7 in _shown(found.snippet), found
    found = locate_in_file(OPTIONS, SYMBOLS, query_terms("fix the docstring for --benchmark"))
    assert found is not None and 7 in _shown(found.snippet), found


def _shown(snippet: str) -> set[int]:
    return {int(line.partition(":")[0]) for line in snippet.splitlines()}
