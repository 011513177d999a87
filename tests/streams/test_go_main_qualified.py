"""`main.main` in a Go stack trace names no file when several commands declare it: every Go
command is `package main`, so the qualifier says nothing of which. QA on rs/zerolog: a panic
trace through event.go and log.go, ending in the user's own `main.main()` at
/home/u/app/main.go:12, ranked cmd/lint/lint.go and cmd/prettylog/prettylog.go level with
the two frames the repository holds, for their `func main()`."""

from __future__ import annotations

from pathlib import Path

from streams.stores.views.handlers import default_registry
from streams.stores.views.search import declared_symbols
from streams.stores.views.store import ViewStore
from tests.streams.symbol_records import records

FILES = {
    "cmd/lint/lint.go": "package main\n\nfunc main() {\n\tlint()\n}\n",
    "cmd/pretty/pretty.go": "package main\n\nfunc main() {\n\tpretty()\n}\n",
    "event.go": "package zerolog\n\ntype Event struct{}\n\nfunc (e *Event) Discard() {}\n",
}
TRACE = (
    "panic: runtime error: invalid memory address or nil pointer dereference\n\n"
    "goroutine 7 [running]:\n"
    "github.com/rs/zerolog.(*Event).Discard(...)\n"
    "\t/home/u/go/pkg/mod/github.com/rs/zerolog@v1.33.0/event.go:104\n"
    "main.main()\n\t/home/u/app/main.go:12 +0x25\n"
)


def _named(tmp_path: Path, files: dict[str, str], query: str) -> dict[str, dict[str, int]]:
    with ViewStore(tmp_path / "views.db", default_registry()) as store:
        store.apply([rec for path, body in files.items() for rec in records(path, body)], {})
        return store.read(lambda conn: declared_symbols(conn, "r", query, 150))


def test_main_main_declared_by_several_commands_names_none(tmp_path: Path) -> None:
    named = _named(tmp_path, FILES, TRACE)
    assert set(named) == {"event.go"}, named


def test_main_main_of_the_one_command_names_it(tmp_path: Path) -> None:
    files = {path: body for path, body in FILES.items() if "pretty" not in path}
    named = _named(tmp_path, files, TRACE)
    assert set(named) == {"event.go", "cmd/lint/lint.go"}, named
