"""A config question naming a tool answers its dotfile first whatever its extension
(`.copywrite.hcl` for `where is the copywrite config`): QA on hashicorp/hcl put the Makefile,
which runs `copywrite headers`, above .copywrite.hcl, an `.hcl` file path_roles does not count
as config."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "Makefile": (
        "copyrightcheck:\n\tgo run github.com/hashicorp/copywrite@latest headers --plan\n\n"
        "copyrightfix:\n\tgo run github.com/hashicorp/copywrite@latest headers\n"
        "\t# copywrite reads its config from the root\n"
    ),
    ".copywrite.hcl": (
        'schema_version = 1\n\nproject {\n  license = "MPL-2.0"\n'
        '  header_ignore = ["testdata/**"]\n}\n'
    ),
    "parser.go": "package hcl\n\n// ParseConfig parses a config file.\nfunc ParseConfig() {}\n",
}


async def test_a_tool_s_dotfile_is_its_config_whatever_its_extension(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES, "hcl") as app:
        found = await app.service.search(
            t.SearchArgs(repoId="hcl", query="where is the copywrite config")
        )
    assert found.hits[0].entry.path == ".copywrite.hcl", found.hits
