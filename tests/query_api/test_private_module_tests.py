"""A Python test named for a name is the test of the private module of that name
(`test_class_methods.py` of `_class_methods.py`: query_api/symbols/tested_by._private). A
package keeps its code in such modules and re-exports their names from its __init__.py; QA on
python-attrs/cattrs found tests/strategies/test_class_methods.py the test of
strategies/__init__.py, by its folder, and tests/test_generics.py the test of no file."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.symbols.tested_by import subject_of_test
from schemas import tools as t
from schemas.symbols import RelatedArgs
from tests.ingested import indexed_app

INDEXED = [
    "src/shop/strategies/__init__.py",
    "src/shop/strategies/_class_methods.py",
    "src/shop/_generics.py",
    "src/shop/__init__.py",
]


def subject(test: str, imports: list[str] | None = None) -> str | None:
    def lookup(name: str) -> list[str]:
        return [p for p in INDEXED if p.endswith(f"/{name}")]

    return subject_of_test(test, lookup, None if imports is None else lambda _: imports)


def test_a_test_names_the_private_module_of_its_name() -> None:
    assert subject("tests/strategies/test_class_methods.py") == (
        "src/shop/strategies/_class_methods.py"
    )
    assert subject("tests/test_generics.py") == "src/shop/_generics.py"
    # a test named for no module of its folder is still the package's
    assert subject("tests/strategies/test_tagged_unions.py") == "src/shop/strategies/__init__.py"
    assert subject("tests/test_init.py") is None  # `__init__.py` is no private module


def test_a_private_modules_test_imports_it_or_its_package() -> None:
    """cattrs' tests/test_unions.py imports only cattrs.converters: it tests how converters
    structure unions, not strategies/_unions.py."""
    INDEXED.append("src/shop/strategies/_unions.py")
    try:
        assert subject("tests/test_unions.py", ["shop.converters.Converter"]) is None
        assert subject("tests/test_unions.py", ["shop.strategies.configure"]) == (
            "src/shop/strategies/_unions.py"
        )
        assert subject("tests/strategies/test_class_methods.py", ["shop.strategies"]) == (
            "src/shop/strategies/_class_methods.py"
        )
    finally:
        INDEXED.pop()


FILES = {
    "src/shop/__init__.py": "",
    "src/shop/strategies/__init__.py": (
        "from ._class_methods import use_class_methods\n\n__all__ = ['use_class_methods']\n"
    ),
    "src/shop/strategies/_class_methods.py": (
        "def use_class_methods(converter, structure_method_name):\n    return converter\n"
    ),
    "tests/strategies/__init__.py": "",
    "tests/strategies/test_class_methods.py": (
        "from shop.strategies import use_class_methods\n\n\n"
        "def test_edge_cases():\n    assert use_class_methods(1, 'frobnicate') == 1\n"
    ),
}


@pytest.mark.anyio
async def test_related_and_search_place_the_test_under_the_private_module(tmp_path: Path) -> None:
    module = "src/shop/strategies/_class_methods.py"
    async with indexed_app(tmp_path, FILES) as app:
        related = await app.services.symbols.related(RelatedArgs(repoId="repo", path=module))
        answer = await app.service.search(t.SearchArgs(repoId="repo", query="frobnicate"))
    assert "tests/strategies/test_class_methods.py" in {s.path for s in related.tests}
    first = answer.hits[0]
    assert first.entry.path == module, [(h.entry.path, h.reasons) for h in answer.hits]
    assert "tested-by:tests/strategies/test_class_methods.py" in first.reasons, first.reasons
