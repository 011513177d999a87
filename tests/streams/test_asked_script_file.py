"""`where is the build script`: a question asking for the script a word names asks for the
program called so (Cargo's build.rs, a build.sh, install.sh for `the install script`), nearest
the root. QA on ajeetdsouza/zoxide named no file, reading `script` as the file's name, and
ranked shell.nix and install.sh above build.rs (streams/stores/views/named_files.py
asked_file)."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from streams.stores.views.named_files import asked_file
from tests.streams.symbol_records import views_holding

FILES = {
    "build.rs": 'fn main() {\n    println!("cargo:rerun-if-changed=src");\n}\n',
    "install.sh": "#!/bin/sh\n# build and install the binary\ncargo build --release\n",
    "scripts/release.sh": '#!/bin/sh\ngit tag "$1"\n',
    "docs/build.md": "# Building\n\nRun the build script.\n",
    "shell.nix": "# the build script's tools\n{ pkgs }: pkgs.mkShell {}\n",
    "src/main.rs": "fn main() {}\n",
}


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("where is the build script", ["build.rs"]),
        ("where is the install script?", ["install.sh"]),
        ("show me the release script", ["scripts/release.sh"]),
        ("where is the deploy script", []),  # no file called so
    ],
)
def test_the_script_a_word_names_is_the_program_called_so(
    tmp_path: Path, query: str, named: list[str]
) -> None:
    with views_holding(tmp_path, FILES) as store:
        assert store.read(partial(asked_file, repo_id="r", query=query)) == named
