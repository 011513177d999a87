"""`from pkg import name` records both `pkg` and `pkg.name`: the name may be the module
pkg/name.py, which only the repository's files tell (query_api/symbols/python_modules.py
keeps the one that is a file; QA on pypa/pipx)."""

from __future__ import annotations

from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import upsert


def test_a_from_import_records_the_package_and_the_name_under_it() -> None:
    body = (
        "from pipx import commands, paths\nfrom .util import run\nfrom . import types\n"
        "from os.path import *\n"
    )
    records = symbols_of(upsert("src/pipx/main.py", body))
    assert records is not None
    assert records[1].imports == [
        "os.path.*",
        "pipx",
        "pipx.commands",
        "pipx.paths",
        "src.pipx.types",
        "src.pipx.util",
        "src.pipx.util.run",
    ]
