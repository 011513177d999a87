"""`where is the license`: a project's license file goes by other names than `license`
(GNU's COPYING, UNLICENSE), and the question names it whatever it is called. QA on
google/guice, whose license is COPYING: it named no file and answered eight source files'
license headers."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

HEADER = "/* Licensed under the Apache License, Version 2.0 (the License) */\nclass A {}\n"


@pytest.mark.parametrize("name", ["COPYING", "LICENSE.txt", "UNLICENSE"])
@pytest.mark.parametrize("query", ["where is the license", "where is the LICENSE file?"])
def test_the_license_file_is_named_whatever_it_is_called(
    tmp_path: Path, name: str, query: str
) -> None:
    files = {name: "Apache License\nVersion 2.0\n", "src/A.java": HEADER, "lib/COPYING": "x\n"}
    with views_holding(tmp_path, files) as store:
        assert store.read(partial(asked_file, repo_id="r", query=query)) == [name]


def test_no_license_file_names_none(tmp_path: Path) -> None:
    with views_holding(tmp_path, {"src/A.java": HEADER}) as store:
        assert store.read(partial(asked_file, repo_id="r", query="where is the license")) == []
