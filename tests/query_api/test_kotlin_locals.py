"""related names a Kotlin use or test by the function holding it, not by a local `val`.

The Kotlin extractor declares each `val` inside a function body (a Property), and a reference
made in its initialiser is that local's: on square/retrofit, related of KotlinExtensions.kt
listed `retrofit2.KotlinSuspendTest.body.example` and 24 more such locals as tests (one per
test function, `val example = retrofit.create(...)`), and Invocation.java's dependents
`retrofit2.await.onResponse.invocation`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.symbols.related import related_of
from tests.query_api.test_symbol_dependents import Repo, repo_holding

TWICE = "package org.shop\n\nfun Int.twice(): Int = this * 2\n"

TWICE_TEST = """package org.shop

class TwiceTest {
    val shared = 1.twice()

    fun doubles() {
        val doubled = 2.twice()
        check(doubled == 4)
    }
}
"""

USE = """package org.shop

fun use(): Int {
    val x = 3.twice()
    return x
}
"""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(
        tmp_path,
        {
            "src/main/java/org/shop/Twice.kt": TWICE,
            "src/test/java/org/shop/TwiceTest.kt": TWICE_TEST,
            "src/main/java/org/shop/Use.kt": USE,
        },
    ) as r:
        yield r


def test_a_kotlin_local_is_named_by_its_function(repo: Repo) -> None:
    answer = related_of(repo.resolver, repo.views, "r", "src/main/java/org/shop/Twice.kt", 0)
    assert [(d.path, d.symbol) for d in answer.tests] == [
        ("src/test/java/org/shop/TwiceTest.kt", "org.shop.TwiceTest.doubles"),
        # a class's property is no local: it stays
        ("src/test/java/org/shop/TwiceTest.kt", "org.shop.TwiceTest.shared"),
    ]
    dependents = {(d.path, d.symbol) for d in answer.dependents}
    assert ("src/main/java/org/shop/Use.kt", "org.shop.use") in dependents, dependents
