"""A test file named for a class (`test_file_processor.py` for `FileProcessor`,
`FileProcessor.test.ts`) that imports the class's module is that module's test, though no
file is named `file_processor`. QA on PyCQA/flake8: tests/unit/test_file_processor.py tests
`FileProcessor` of src/flake8/processor.py, and `tests for processor.py` left it unplaced
(no `tests:` reason) while test_checker.py was placed for checker.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_api.test_symbol_dependents import Repo, repo_holding

FILES = {
    "src/pkg/__init__.py": "",
    "src/pkg/processor.py": (
        "class FileProcessor:\n    def read_lines(self):\n        return []\n\n"
        "class HTTPReader:\n    pass\n"
    ),
    "src/pkg/checker.py": "class FileChecker:\n    def run(self):\n        return 1\n",
    "tests/__init__.py": "",
    "tests/unit/test_file_processor.py": (
        "from pkg import processor\n\n"
        "def test_read_lines():\n    assert processor.FileProcessor().read_lines() == []\n"
    ),
    "tests/unit/test_http_reader.py": (
        "from pkg.processor import HTTPReader\n\ndef test_reader():\n    assert HTTPReader()\n"
    ),
    # named for the class, but imports nothing of its module: not its test
    "tests/unit/test_file_checker.py": "def test_other():\n    assert True\n",
    "src/web/reader.ts": "export class StreamReader {\n  read(): number { return 1; }\n}\n",
    "test/StreamReader.test.ts": (
        "import { StreamReader } from '../src/web/reader';\n\n"
        "it('reads', () => new StreamReader().read());\n"
    ),
}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, FILES) as r:
        yield r


def test_a_python_test_named_for_a_class_tests_the_module_declaring_it(repo: Repo) -> None:
    assert repo.resolver.named_tests("r", "src/pkg/processor.py") == [
        "tests/unit/test_file_processor.py",
        "tests/unit/test_http_reader.py",
    ]


def test_a_class_named_test_importing_nothing_of_it_is_not_its_test(repo: Repo) -> None:
    assert repo.resolver.named_tests("r", "src/pkg/checker.py") == []


def test_a_ts_test_named_for_a_class_tests_the_module_declaring_it(repo: Repo) -> None:
    assert repo.resolver.named_tests("r", "src/web/reader.ts") == ["test/StreamReader.test.ts"]
