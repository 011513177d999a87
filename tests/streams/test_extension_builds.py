"""`where is the C extension built` asks for the files building the extension (setup.py's
Extension(...), a Bazel BUILD file's py_extension), not its source. QA on pallets/markupsafe
and google/re2: the extension's C source ranked first and setup.py below it (re2's
python/setup.py fifth for `how is the python extension built`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from streams.stores.views.handlers import default_registry
from streams.stores.views.named_files import asked_file
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

FILES = {
    "setup.py": (
        "from setuptools import Extension, setup\n\n"
        'setup(ext_modules=[Extension("quokka._speedups", ["src/quokka/_speedups.c"])])\n'
    ),
    "python/BUILD.bazel": 'py_extension(\n    name = "_quokka",\n    srcs = ["_quokka.cc"],\n)\n',
    "docs/setup.py": "print('not a build')\n",
    "src/quokka/_speedups.c": (
        "/* the C extension, built by setup.py */\nint build(void) { return 0; }\n"
    ),
    "src/quokka/__init__.py": "from ._speedups import build\n",
}


@pytest.mark.parametrize(
    "query",
    [
        "where is the C extension built",
        "how is the python extension built?",
        "where are the native extensions compiled",
    ],
)
def test_the_files_building_an_extension_are_asked(tmp_path: Path, query: str) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        found = store.read(lambda c: asked_file(c, "r", query))
    assert found == ["setup.py", "python/BUILD.bazel"], found


def test_a_change_request_about_the_extension_asks_for_no_file(tmp_path: Path) -> None:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in FILES.items() for rec in records(path, body)], {})
        found = store.read(lambda c: asked_file(c, "r", "Fix the C extension build on Windows"))
    assert "setup.py" not in found, found
