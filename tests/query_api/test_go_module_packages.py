"""A Go reference qualified through an import names a package of this repository only when
the import path is that package's: its go.mod's module path and its folder under the module
(QA on go-kratos/kratos). Matched by the package's name alone, the standard library's
`errors.New` in 20 files was taken for kratos' own errors/errors.go `New` (related listed them
as its dependents), and contrib/opensergo's `google.golang.org/grpc` NewClient for
transport/grpc/client.go's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.symbols.go_modules import import_path_note
from tests.query_api.test_symbol_dependents import Repo, repo_holding

ERRORS = """package errors

// New makes an error.
func New(text string) error { return nil }
"""

CLIENT = """package grpc

// NewClient dials a server.
func NewClient(target string) error { return nil }
"""

# the standard library's errors, imported bare: not errors/errors.go's New
LIMIT = """package limit

import "errors"

var ErrLimit = errors.New("limit exceeded")
"""

# the repository's own errors package, through the module path
LOGGING = """package logging

import "example.com/kit/v3/errors"

func Wrap() error { return errors.New("wrapped") }
"""

# a module of its own under contrib/: google's grpc, then the repository's
SERGO = """package sergo

import "google.golang.org/grpc"

func Dial() { grpc.NewClient("x") }
"""

USE = """package sergo

import kgrpc "example.com/kit/v3/transport/grpc"

func Use() { kgrpc.NewClient("x") }
"""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(
        tmp_path,
        {
            "go.mod": "module example.com/kit/v3\n\ngo 1.22\n",
            "errors/errors.go": ERRORS,
            "transport/grpc/client.go": CLIENT,
            "internal/limit/limit.go": LIMIT,
            "middleware/logging/logging.go": LOGGING,
            "contrib/sergo/go.mod": 'module "example.com/kit/contrib/sergo/v3" // own module\n',
            "contrib/sergo/sergo.go": SERGO,
            "contrib/sergo/use.go": USE,
        },
    ) as r:
        yield r


def test_a_standard_library_package_of_the_same_name_is_no_dependency(repo: Repo) -> None:
    assert repo.dependents("errors/errors.go") == [
        ("middleware/logging/logging.go", "logging.Wrap")
    ]  # not internal/limit/limit.go, whose `errors` is the standard library's


def test_another_module_s_package_of_the_same_name_is_no_dependency(repo: Repo) -> None:
    assert repo.dependents("transport/grpc/client.go") == [("contrib/sergo/use.go", "sergo.Use")]


def test_without_a_go_mod_the_package_name_still_decides(tmp_path: Path) -> None:
    # no module path to compare with (a GOPATH-era tree): the import path's last element
    with repo_holding(
        tmp_path, {"errors/errors.go": ERRORS, "middleware/logging/logging.go": LOGGING}
    ) as repo:
        assert repo.dependents("errors/errors.go") == [
            ("middleware/logging/logging.go", "logging.Wrap")
        ]


CODEC = """package json

func init() { register("json") }

func register(name string) {}
"""

# a blank import runs the package's init(): no reference, still a dependency
BLANK = """package config

import _ "example.com/kit/v3/encoding/json"

func Load() {}
"""


def test_an_importer_of_a_package_whose_file_has_init_depends_on_that_file(
    tmp_path: Path,
) -> None:
    """QA on go-kratos/kratos: encoding/json/json.go registers its codec in init(), and
    config/config.go and transport/transport.go import it blank for that; related said it
    had no dependent but its own test."""
    with repo_holding(
        tmp_path,
        {
            "go.mod": "module example.com/kit/v3\n",
            "encoding/json/json.go": CODEC,
            "config/config.go": BLANK,
            "errors/errors.go": ERRORS,
            "middleware/logging/logging.go": LOGGING,
        },
    ) as repo:
        assert repo.dependents("encoding/json/json.go") == [("config/config.go", "<file>")]
        # a file without init() is depended on through its declarations only
        assert repo.dependents("errors/errors.go") == [
            ("middleware/logging/logging.go", "logging.Wrap")
        ]


# charmbracelet/bubbletea: module charm.land/bubbletea/v2, whose root package is `package tea`
LOG = """package tea

// LogToFile sets up logging to a file.
func LogToFile(path string, prefix string) error { return nil }

// Program is a terminal user interface.
type Program struct{}

// Run runs the program.
func (p *Program) Run() error { return nil }
"""

# its examples are a module of their own that imports the root package under its name `tea`
EXAMPLE = """package main

import tea "charm.land/bubbletea/v2"

func main() {
\t_ = tea.LogToFile("debug.log", "simple")
\tvar p *tea.Program
\t_ = p
}
"""


def test_a_package_named_otherwise_than_its_import_path_has_its_importers_as_dependents(
    tmp_path: Path,
) -> None:
    """QA on charmbracelet/bubbletea: the root package of `charm.land/bubbletea/v2` is
    `package tea`, so its declarations' fq names start `tea.` while the examples' references
    read `charm.land.bubbletea.v2.LogToFile`; related(logging.go) listed only its own test,
    none of the examples calling tea.LogToFile, and related(tea.go) none of the 50 example
    programs. The go.mod says which package the import path is, whatever its clause."""
    with repo_holding(
        tmp_path,
        {
            "go.mod": "module charm.land/bubbletea/v2\n\ngo 1.24\n",
            "logging.go": LOG,
            "examples/go.mod": "module examples\n\nreplace charm.land/bubbletea/v2 => ../\n",
            "examples/simple/main.go": EXAMPLE,
        },
    ) as repo:
        assert repo.dependents("logging.go") == [("examples/simple/main.go", "main.main")]


def test_a_folder_of_a_nested_module_is_no_package_of_the_outer_one() -> None:
    """QA on charmbracelet/bubbletea: examples/ holds a go.mod of its own (`module
    examples`), so it is no part of charm.land/bubbletea/v2; outline of
    `charm.land/bubbletea/v2/examples` answered that the import path's package is in examples
    (naming its README.md, go.mod and go.sum), an import path Go would not resolve there."""
    texts = {"go.mod": "module charm.land/bubbletea/v2\n", "examples/go.mod": "module examples\n"}
    files = {
        "": ["tea.go", "go.mod"],
        "examples/": ["examples/go.mod", "examples/README.md", "examples/simple/main.go"],
        "examples/simple/": ["examples/simple/main.go"],
    }

    def note(path: str) -> str | None:
        return import_path_note(path, sorted(texts), texts.get, files.__getitem__, 3)

    assert note("charm.land/bubbletea/v2/examples") is None
    assert note("charm.land/bubbletea/v2/examples/simple") is None
    assert "repository root" in str(note("charm.land/bubbletea/v2"))  # its own package
