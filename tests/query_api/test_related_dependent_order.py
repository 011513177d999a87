"""The order of repocontext_related's dependents (query_api/symbols/related.py): the code
using a file before documentation and examples using it. On fastapi/typer, related of
typer/__init__.py listed 320 dependents, 200 of them docs_src/ tutorials first (by path, each
`<file>`), and typer/cli.py, the one library file importing the package, came on the sixth
page (offset 200)."""

from __future__ import annotations

from pathlib import Path

from query_api.symbols.related import ranked_dependents, related_of
from tests.query_api.test_symbol_dependents import repo_holding


def test_code_using_a_file_comes_before_docs_and_examples(tmp_path: Path) -> None:
    files = {
        "shop/__init__.py": "def run():\n    return 1\n\n\ndef stop():\n    return 0\n",
        "shop/cli.py": "import shop\n\n\ndef main():\n    shop.run()\n",
        "docs_src/first/tutorial001.py": (
            "import shop\n\n\ndef a():\n    shop.run()\n\n\ndef b():\n    shop.stop()\n"
        ),
        "examples/demo.py": "import shop\n\n\ndef demo():\n    shop.run()\n",
        "docs/snippets/use.py": "import shop\n\n\ndef use():\n    shop.run()\n",
    }
    with repo_holding(tmp_path, files) as repo:
        related = related_of(repo.resolver, repo.views, "r", "shop/__init__.py", 0)
        order = list(dict.fromkeys(d.path for d in related.dependents))
        assert order[0] == "shop/cli.py", order
        assert set(order[1:]) == {
            "docs_src/first/tutorial001.py",
            "examples/demo.py",
            "docs/snippets/use.py",
        }, order


def test_docs_and_examples_keep_their_order_among_themselves() -> None:
    found = {
        "docs_src/a/tutorial002.py": ["x"],
        "docs_src/a/tutorial001.py": ["x", "y"],
        "example_apps/one.py": ["x"],
        "src/app.py": ["x"],
        "tests/test_app.py": ["x", "y", "z"],
    }
    assert ranked_dependents(found) == [
        "src/app.py",
        "docs_src/a/tutorial001.py",
        "docs_src/a/tutorial002.py",
        "example_apps/one.py",
        "tests/test_app.py",
    ]
