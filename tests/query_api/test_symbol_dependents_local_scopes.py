"""Dependents where a scope binds a name for itself (PROCESSOR_VERSION 48): a TS/JS local
that shadows an import, a Python class body's import and `global` import, a C# property
read before a dot. Each made a file a dependent of a declaration it does not use."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.test_symbol_dependents import Repo


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        yield Repo(store)


def test_a_local_that_shadows_a_require_names_nothing_of_the_module(repo: Repo) -> None:
    # `const path = { join() {} }` in f, under the file's `const path = require('./path')`:
    # f's `path.join()` is the local object's, so f is no dependent of lib/path.js's `join`;
    # g's `path.join()` still is
    repo.add(
        {
            "lib/path.js": "function join () {}\nfunction resolve () {}\n"
            "module.exports = { join, resolve }\n",
            "lib/a.js": (
                "const path = require('./path')\n"
                "function f () {\n  const path = { join () {} }\n  path.join()\n}\n"
                "function g () {\n  path.resolve()\n}\n"
                "module.exports = { f, g }\n"
            ),
        }
    )
    assert repo.dependents("lib/path.js") == [("lib/a.js", "g")]


def test_a_class_body_import_is_no_dependency_of_its_methods(repo: Repo) -> None:
    # `from .decorators import command` in a class body binds `command` for the class's own
    # statements; a method's `command()` is the module's (here termui's own `command`)
    repo.add(
        {
            "pkg/__init__.py": "",
            "pkg/decorators.py": "def command():\n    pass\n",
            "pkg/core.py": (
                "def command():\n    pass\n\n\n"
                "class Group:\n    from .decorators import command as make\n\n"
                "    def add(self):\n        make()\n"
            ),
        }
    )
    assert repo.dependents("pkg/decorators.py") == [("pkg/core.py", "<file>")]


def test_a_global_import_in_a_function_names_the_module_for_the_whole_file(repo: Repo) -> None:
    # `global impl` then `from . import impl` in load(): the module-level name, which run()
    # calls through
    repo.add(
        {
            "pkg/__init__.py": "",
            "pkg/impl.py": "def start():\n    pass\n",
            "pkg/main.py": (
                "impl = None\n\n\n"
                "def load():\n    global impl\n    from . import impl\n\n\n"
                "def run():\n    impl.start()\n"
            ),
        }
    )
    assert ("pkg/main.py", "pkg.main.run") in repo.dependents("pkg/impl.py")


def test_a_csharp_record_property_before_a_dot_is_no_dependency_on_a_class_of_its_name(
    repo: Repo,
) -> None:
    # `record Pair(string Key, string Value)`: `Value.Length` in its body reads the positional
    # property, which no declaration of the file names (the query declares none for a
    # record's parameters), so the bare `Value` matched the class `Value` of Value.cs. A
    # property the file declares was already its own (the resolver's rule); `Tokenizer.Count`
    # still names the class (8be49b9)
    repo.add(
        {
            "src/Value.cs": "namespace Shop\n{\n  class Value\n  {\n"
            "    public static int Length = 1;\n  }\n}\n",
            "src/Tokenizer.cs": "namespace Shop\n{\n  static class Tokenizer\n  {\n"
            "    public const int Count = 3;\n  }\n}\n",
            "src/Pair.cs": (
                "namespace Shop\n{\n  record Pair(string Key, string Value)\n  {\n"
                "    int Size() { return Value.Length + Tokenizer.Count; }\n  }\n}\n"
            ),
            "src/Parser.cs": (
                "namespace Shop\n{\n  class Parser\n  {\n"
                "    public string Value { get; set; }\n"
                "    int Parse() { return Value.Length; }\n  }\n}\n"
            ),
        }
    )
    assert repo.dependents("src/Value.cs") == []
    assert repo.dependents("src/Tokenizer.cs") == [("src/Pair.cs", "Shop.Pair.Size")]
