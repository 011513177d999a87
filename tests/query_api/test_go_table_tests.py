"""related's `tests` name a Go test by its function, not by the fields of its table (QA on
go-kratos/kratos): a table-driven test declares an anonymous struct inside the function, and
each field typed with the file's declarations was listed as a test of its own. related of
metadata/metadata.go listed 29 symbols of metadata_test.go, 15 of them such fields
(`metadata.TestMetadata_Clone.m`, `metadata.TestAppendToClientContext.args.md`) beside the
test functions holding them."""

from __future__ import annotations

from pathlib import Path

from query_api.answers.related_text import related_lines
from query_api.symbols.related import related_of
from tests.query_api.test_symbol_dependents import repo_holding

PARAMS = """package gotiny

// Params is a list of values.
type Params []string

// New makes Params.
func New() Params { return Params{} }
"""

TABLE_TEST = """package gotiny

import "testing"

type fixture struct{ p Params }

func (f fixture) check(t *testing.T) { _ = f.p }

func TestNew(t *testing.T) {
	type args struct {
		p Params
	}
	tests := []struct {
		name string
		args args
		want Params
	}{{"empty", args{Params{}}, Params{}}}
	for _, tt := range tests {
		if got := New(); len(got) != len(tt.want) {
			t.Fatal(tt.name)
		}
	}
}
"""


def test_a_table_test_is_listed_by_its_function(tmp_path: Path) -> None:
    with repo_holding(tmp_path, {"params.go": PARAMS, "params_test.go": TABLE_TEST}) as repo:
        answer = related_of(repo.resolver, repo.views, "r", "params.go", 0)
        listed = [(t.path, t.symbol) for t in answer.tests]
        assert ("params_test.go", "gotiny.TestNew") in listed, listed
        # the table's fields are the test's, not tests of their own
        assert all(not s.startswith("gotiny.TestNew.") for _, s in listed), listed
        # a type of the test file and its method stay as they are
        assert ("params_test.go", "gotiny.fixture.p") in listed, listed


PROGRAM = """package tea

type renderer interface{ flush() }

// Program runs a model.
type Program struct{ r renderer }

// Run runs the program.
func (p *Program) Run() {}
"""

RENDERER = """package tea

type cursedRenderer struct{ buf []byte }

func newCursedRenderer() *cursedRenderer { return &cursedRenderer{} }

func (s *cursedRenderer) flush() {}

func (s *cursedRenderer) onMouse() {}
"""

RENDERER_TEST = """package tea

import "testing"

// drives the renderer through a Program, naming none of its declarations
func TestCursedRenderer_mouseVsFlush(t *testing.T) {
	p := &Program{}
	p.Run()
}

func TestCursedRenderer_restoresKittyKeyboardStack(t *testing.T) {
	r := newCursedRenderer()
	r.flush()
}

func BenchmarkCursedRenderer(b *testing.B) {}

// named for nothing the file declares, using nothing of it
func TestOther(t *testing.T) {}
"""
RENDERER_FILES = {
    "tea.go": PROGRAM,
    "cursed_renderer.go": RENDERER,
    "cursed_renderer_test.go": RENDERER_TEST,
}


def test_a_test_function_named_for_a_declaration_is_one_of_its_tests(tmp_path: Path) -> None:
    """QA on charmbracelet/bubbletea: related of cursed_renderer.go listed two of the three
    tests of cursed_renderer_test.go, not TestCursedRenderer_mouseVsFlush, which the fix of a
    data race in cursedRenderer.onMouse added: it drives the renderer through NewProgram and
    names none of the file's declarations. A Go test function is named for what it tests,
    `Test<Name>` or `Test<Name>_<case>` (the name's first letter upper-cased, as `go test`
    requires), in the test files of the declaring package's folder that test the file."""
    with repo_holding(tmp_path, RENDERER_FILES) as repo:
        answer = related_of(repo.resolver, repo.views, "r", "cursed_renderer.go", 0)
        listed = [(t.path, t.symbol) for t in answer.tests]
        assert listed == [
            ("cursed_renderer_test.go", "tea.BenchmarkCursedRenderer"),
            ("cursed_renderer_test.go", "tea.TestCursedRenderer_mouseVsFlush"),
            ("cursed_renderer_test.go", "tea.TestCursedRenderer_restoresKittyKeyboardStack"),
        ], listed


COMMANDS = """package tea

// sequenceMsg runs commands in order.
type sequenceMsg []func()
"""

# a table test whose table's type has a field of the file's type (bubbletea's TestClearMsg)
SCREEN_TEST = """package tea

import "testing"

func TestClearMsg(t *testing.T) {
	type test struct {
		name string
		cmds sequenceMsg
	}
	tests := []test{{name: "clear"}}
	_ = tests
}
"""


def test_a_table_tests_fields_are_its_function_among_dependents_too(tmp_path: Path) -> None:
    """QA on charmbracelet/bubbletea: related of commands.go listed screen_test.go among its
    dependents as `tea.TestClearMsg.test.cmds` (a field of the test's local table type) and
    among its tests as `tea.TestClearMsg`, so the text's dependents line repeated the file
    instead of counting it as listed under tests. Both lists name a Go test's table fields by
    its function."""
    with repo_holding(tmp_path, {"commands.go": COMMANDS, "screen_test.go": SCREEN_TEST}) as repo:
        answer = related_of(repo.resolver, repo.views, "r", "commands.go", 0)
        assert [(d.path, d.symbol) for d in answer.dependents] == [
            ("screen_test.go", "tea.TestClearMsg")
        ]
        assert related_lines(answer)[1:3] == [
            "dependents:",
            "  no source file; 1 test file, listed under tests",
        ]


def test_a_go_test_file_names_the_file_it_tests(tmp_path: Path) -> None:
    """QA on charmbracelet/bubbletea: related of cursed_renderer_test.go answered imports of
    the standard library only, no dependents and no tests: a Go test uses its package's
    declarations without an import, so nothing in the answer said which file it tests. Its
    note names the file it is named for (tested_by.subject_of_test, the rule related's tests
    of that file read)."""
    with repo_holding(tmp_path, RENDERER_FILES) as repo:
        answer = related_of(repo.resolver, repo.views, "r", "cursed_renderer_test.go", 0)
        assert answer.note is not None and "tests cursed_renderer.go" in answer.note, answer
        # a source file says nothing of the kind
        note = related_of(repo.resolver, repo.views, "r", "cursed_renderer.go", 0).note
        assert "tests cursed_renderer.go" not in str(note), note
