"""A CLI's own error pasted as it prints it, after its name (`lister: Option --level is useless
without options --recurse or --tree`), is a pasted message: the file writing it ranks first
(query_api/retrieval/program_errors.py). QA on eza-community/eza put two completion scripts,
listing every flag, above src/options/error.rs, fifth."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.program_errors import program_marked
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FLAGS = "".join(
    f"    '--{flag}[{flag} option: useless without options, or given --all]' \\\n"
    for flag in ("level", "recurse", "tree", "all", "long", "git")
)
FILES = {
    "Cargo.toml": '[package]\nname = "lister"\nversion = "0.1.0"\n',
    "src/main.rs": (
        "mod options;\n\nfn main() {\n    if let Err(error) = options::parse() {\n"
        '        eprintln!("lister: {error}");\n    }\n}\n'
    ),
    "src/options/mod.rs": "pub mod error;\n\npub fn parse() -> Result<(), error::OptionsError> {\n"
    '    Err(error::OptionsError::Useless2("level", "recurse", "tree"))\n}\n',
    "src/options/error.rs": (
        "use std::fmt;\n\npub enum OptionsError {\n    Useless2(&'static str, &'static str,"
        " &'static str),\n}\n\nimpl fmt::Display for OptionsError {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
        "        match self {\n            Self::Useless2(a, b1, b2) => write!(f, "
        '"Option {a} is useless without options {b1} or {b2}"),\n        }\n    }\n}\n'
    ),
    "completions/zsh/_lister": f"#compdef lister\n_arguments \\\n{FLAGS}    '*:file:_files'\n",
    "completions/fish/lister.fish": "".join(
        f"complete -c lister -l {flag} -d 'Option {flag}: useless without options or given all'\n"
        for flag in ("level", "recurse", "tree", "all")
    ),
}


async def test_a_programs_own_error_finds_the_file_writing_it(tmp_path: Path) -> None:
    query = "lister: Option --level is useless without options --recurse or --tree"
    async with indexed_app(tmp_path, FILES) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
    assert [hit.entry.path for hit in answer.hits][:1] == ["src/options/error.rs"]


@pytest.mark.parametrize(
    ("query", "marked"),
    [
        ("lister: Option --tree is useless", "lister: error: Option --tree is useless"),
        ("lister: error: Option --tree is useless", "lister: error: Option --tree is useless"),
        ("theme: Make temp files visible", "theme: Make temp files visible"),  # a scope
        ("lister: add a --tree option", "lister: add a --tree option"),  # no sentence
    ],
)
def test_only_the_projects_name_before_a_sentence_is_its_output(query: str, marked: str) -> None:
    assert program_marked(query, lambda: frozenset({"lister"})) == marked
