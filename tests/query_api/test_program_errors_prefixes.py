"""A program's own error with its message opening lowercase (`visits: unsupported version (got
4, supports 3)`), or a library's with its name in brackets (`[route-kit] Route config in
"app/routes.ts" must be an array.`), is a pasted message: the file writing it ranks first
(query_api/retrieval/program_errors.py, pasted_message.py). QA on ajeetdsouza/zoxide ranked the
completion scripts above src/db/mod.rs, and on remix-run/react-router read no message."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.pasted_message import message_queries
from query_api.retrieval.program_errors import program_marked
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

DB = """\
use anyhow::{bail, Result};

pub struct Database { version: u32 }

impl Database {
    const VERSION: u32 = 3;

    pub fn open(bytes: &[u8]) -> Result<Database> {
        let version = bytes[0] as u32;
        if version != Self::VERSION {
            bail!("unsupported version (got {version}, supports {})", Self::VERSION)
        }
        Ok(Database { version })
    }
}
"""

COMPLETION = """\
_visits() {
    opts="-h -V --help --version add query remove"
    # --version: print the version; an unsupported shell version gets no completions
    COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
}
"""

RUST_FILES = {
    "Cargo.toml": '[package]\nname = "visits"\nversion = "0.3.0"\n',
    "src/main.rs": (
        "mod db;\n\nfn main() {\n    if let Err(e) = run() {\n"
        '        eprintln!("visits: {e}");\n    }\n}\n'
    ),
    "src/db.rs": DB,
    "contrib/completions/visits.bash": COMPLETION,
    "contrib/completions/visits.fish": (
        "complete -c visits -s V -l version -d 'Print version'\n"
        "# the version this shell supports: got from --version\n"
    ),
    "install.sh": (
        "#!/bin/sh\n# the installer supports sh and bash, of any version\n"
        'err "unsupported version of the shell: got $version, supports sh and bash"\n'
    ),
}

CONFIG = """\
export function validateRouteConfig(file: string, config: unknown) {
  if (!Array.isArray(config)) {
    return { valid: false, message: `Route config in "${file}" must be an array.` };
  }
  return { valid: true };
}
"""

JS_FILES = {
    "package.json": '{\n  "name": "route-kit",\n  "version": "1.0.0"\n}\n',
    "src/config/routes.ts": CONFIG,
    "playground/app/routes.ts": (
        'import { type RouteConfig } from "route-kit";\n\n'
        "// the route config: an array of routes in app/routes.ts\n"
        "export default [] satisfies RouteConfig;\n"
    ),
    "docs/routing.md": "# Routing\n\nThe route config in app/routes.ts is an array of routes.\n",
}


async def _first(tmp_path: Path, files: dict[str, str], query: str) -> str | None:
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    return answer.hits[0].entry.path if answer.hits else None


async def test_a_lowercase_message_after_the_programs_name(tmp_path: Path) -> None:
    query = "visits: unsupported version (got 4, supports 3)"
    assert await _first(tmp_path, RUST_FILES, query) == "src/db.rs"


async def test_a_message_after_the_librarys_name_in_brackets(tmp_path: Path) -> None:
    query = '[route-kit] Route config in "app/routes.ts" must be an array.'
    assert await _first(tmp_path, JS_FILES, query) == "src/config/routes.ts"


@pytest.mark.parametrize(
    ("query", "marked"),
    [
        ("visits: unsupported version", "visits: error: unsupported version"),
        ("visits: failed to open the db", "visits: error: failed to open the db"),
        ("[route-kit] Route config bad", "[route-kit] error: Route config bad"),
        ("visits: update the changelog", "visits: update the changelog"),  # a change
        ("visits: unify the init scripts", "visits: unify the init scripts"),
        ("[route-kit] fix the loader", "[route-kit] fix the loader"),
        ("[other] Route config bad", "[other] Route config bad"),  # not the project's name
    ],
)
def test_the_projects_name_then_a_fault_is_its_output(query: str, marked: str) -> None:
    names = frozenset({"visits", "route", "kit"})
    assert program_marked(query, lambda: names) == marked


def test_a_message_split_by_values_into_single_words_is_searched_near() -> None:
    assert 'body_terms : NEAR("unsupported version" "got" "supports", 3)' in message_queries(
        "visits: error: unsupported version (got 4, supports 3)"
    )
