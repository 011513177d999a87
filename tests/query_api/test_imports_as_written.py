"""related.imports names a module as its language writes it where the extractor's entries
are dotted (QA: Go's `net.url`, tests/query_api/test_go_dependents.py; the same class of bug
in Rust's `std.collections.HashMap` and PHP's `App.Models.User`). Java, Kotlin, C#, Python
write dots themselves; C/C++, Ruby and TS/JS entries are the paths or specifiers written."""

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


def test_a_rust_path_outside_the_repository_keeps_its_double_colons(repo: Repo) -> None:
    repo.add(
        {
            "Cargo.toml": '[package]\nname = "app"\n',
            "src/lib.rs": (
                "mod b;\nuse crate::b::X;\nuse std::collections::HashMap;\nuse std::io::*;\n"
                "use serde::Serialize as Ser;\npub fn f() {}\n"
            ),
            "src/b.rs": "pub struct X;\n",
        }
    )
    assert repo.resolver.imports("r", "src/lib.rs") == [
        "serde::Serialize",
        "src/b.rs",  # a path into the repository is the file it leads to
        "std::collections::HashMap",
        "std::io::*",
    ]


def test_a_php_namespace_keeps_its_backslashes(repo: Repo) -> None:
    repo.add(
        {
            "src/A.php": (
                "<?php\nnamespace App;\nuse App\\Models\\User;\nuse Foo\\Bar as Baz;\nclass A {}\n"
            )
        }
    )
    assert repo.resolver.imports("r", "src/A.php") == ["App\\Models\\User", "Foo\\Bar"]


def test_dotted_languages_stay_dotted(repo: Repo) -> None:
    repo.add(
        {
            "src/A.java": "package p;\nimport com.shop.Order;\nclass A {}\n",
            "src/A.cs": "using System.Text;\nnamespace N { class A {} }\n",
        }
    )
    assert repo.resolver.imports("r", "src/A.java") == ["com.shop.Order"]
    assert repo.resolver.imports("r", "src/A.cs") == ["System.Text"]
