"""A search for where a name is defined (`where is Environment defined`, `definition of
LoopContext`) points the hit of each file declaring it at that declaration, not at the lines
holding the most of the query's words (query_api/retrieval/definition_sites.py). QA on
pallets/jinja: `where is Environment defined` pointed environment.py at lines 25-28, imports
ending `# type: ignore[attr-defined]`, and `where is the Environment class defined` at line
1152, `environment_class: type[Environment] = Environment`; the class is at line 145."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import asked_kinds, at_definitions, defined_name
from query_api.retrieval.hit_details import HitLocator, enrich
from schemas import tools as t
from streams.stores import ViewStore
from streams.stores.views.handlers import default_registry
from tests.query_api.located import located_hits
from tests.streams.symbol_records import records

PATH = "src/jinja2/environment.py"
BODY = "\n".join(
    [
        "from .defaults import DEFAULT_FILTERS  # type: ignore[attr-defined]",  # 1
        "from .defaults import DEFAULT_TESTS  # type: ignore[attr-defined]",  # 2
        "",
        "",
        "def get_spontaneous_environment(cls, *args):",  # 5
        "    return cls(*args)",  # 6
        "",
        "",
        "class Environment:",  # 9
        '    """The core component: the environment defined for templates."""',  # 10
        "",
        *[f"    option_{n} = {n}" for n in range(12, 60)],  # 12-59
        "",  # 60
        "    def overlay(self):",  # 61
        "        return self",  # 62
        "",
        "",
        "class Template:",  # 65
        "    environment: Environment",  # 66
        "    environment_class: type[Environment] = Environment",  # 67
        "",
    ]
)


def _hit(tmp_path: Path, query: str) -> t.SearchHit:
    [shown] = located_hits(tmp_path, {PATH: BODY}, query, at_definitions)
    return shown


@pytest.mark.parametrize(
    "query",
    [
        "where is Environment defined",
        "where is the Environment class defined?",
        "where is class Environment declared",
        "definition of Environment",
        "which file defines `Environment`",
    ],
)
def test_a_definition_query_points_at_the_declaration(tmp_path: Path, query: str) -> None:
    hit = _hit(tmp_path, query)
    assert hit.startLine == 9, (query, hit)
    assert hit.endLine is not None and hit.endLine < 59  # a long class: its head
    assert hit.snippet is not None and hit.snippet.startswith("9: class Environment:")
    # the first declaration its reasons name is the one its lines are (the search had named
    # get_spontaneous_environment, for the word `environment`)
    named = [r for r in hit.reasons if r.startswith("symbol:")]
    assert named and named[0].endswith(".Environment"), hit.reasons


def test_a_qualified_name_points_at_its_member(tmp_path: Path) -> None:
    hit = _hit(tmp_path, "where is Environment.overlay defined")
    assert (hit.startLine, hit.endLine) == (61, 62), hit
    assert hit.snippet == "61: def overlay(self):\n62: return self"


def test_what_asks_for_a_definition() -> None:
    assert defined_name("where is Environment defined") == "Environment"
    assert defined_name("Where are the `LoopContext` class defined?") == "LoopContext"
    assert defined_name("where do we define pass_context") == "pass_context"
    assert defined_name("go to definition of Environment.overlay") == "Environment.overlay"
    assert defined_name("where is the environment defined for templates") is None
    assert defined_name("what calls Environment") is None
    assert defined_name("Environment") is None


def test_a_name_and_its_kind_alone_ask_for_its_definition() -> None:
    """QA on spf13/pflag: `Value interface` ranked golangflag.go and int.go above flag.go,
    which declares it. A name written as code and its kind alone ask where it is defined;
    `parse function` is as often a request's words."""
    assert defined_name("Value interface") == "Value"
    assert asked_kinds("Value interface") == {"Interface"}
    assert defined_name("the Template class") == "Template"
    assert defined_name("struct Engine") == "Engine"
    assert defined_name("function parse_args?") == "parse_args"
    assert defined_name("`parse` function") == "parse"
    assert defined_name("parse function") is None
    assert defined_name("retry type") is None
    assert defined_name("Add Bar class") is None
    assert defined_name("type class") is None


RUNTIME = "\n".join(
    [
        "import typing as t",  # 1
        "from markupsafe import Markup, escape",  # 2
        "",
        "",
        "def markup_join(seq):",  # 5
        '    """Join markup: the Markup defined for each item."""',  # 6
        '    return Markup("").join(seq)',  # 7
        "",
    ]
)


def test_a_name_no_file_declares_points_at_its_import(tmp_path: Path) -> None:
    """QA on pallets/jinja: `where is Markup defined` (markupsafe's, imported) pointed
    runtime.py at `markup_join`; its import says where the name comes from."""
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records("src/runtime.py", RUNTIME), {})
        path = "src/runtime.py"
        entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
        locator = HitLocator(views)
        query = "where is Markup defined"
        hits = enrich(locator, "r", query, [t.SearchHit(score=1.0, entry=entry)], details=True)
        [shown] = at_definitions(locator, "r", query, hits.hits)
    assert (shown.startLine, shown.endLine) == (2, 2), shown
    assert shown.snippet == "2: from markupsafe import Markup, escape"


TESTS = "\n".join(
    [
        "import pytest",  # 1
        "",
        "",
        "class TestFilter:",  # 4
        "    def test_capitalize(self, env):",  # 5
        "        assert env",  # 6
        "",
        *[f"    def test_round_{n}(self, env):\n        assert {n}" for n in range(8, 68)],
        "    def test_xmlattr(self, env):",  # 128
        "        assert env.filters['xmlattr']",  # 129
        "",
        "    @pytest.mark.parametrize('sep', ['\\t', '\\n'])",  # 131
        "    def test_xmlattr_key_invalid(self, env, sep):",  # 132
        "        assert sep",  # 133
        "",
    ]
)


@pytest.mark.parametrize(
    ("query", "start"),
    [
        ("tests/test_filters.py::TestFilter::test_xmlattr", 128),
        ("FAILED tests/test_filters.py::TestFilter::test_xmlattr_key_invalid[\\t] - assert", 131),
        ("test_filters.py::TestFilter", 4),
    ],
)
def test_a_pytest_node_id_points_at_its_test(tmp_path: Path, query: str, start: int) -> None:
    """QA on pallets/jinja: `tests/test_filters.py::TestFilter::test_xmlattr` pointed the
    test file's hit at the head of TestFilter (31-39), not at the test (467)."""
    path = "tests/test_filters.py"
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(path, TESTS), {})
        entry = t.EntryView(key=f"repo/r/file/{path}", exists=True, kind="File", path=path)
        locator = HitLocator(views)
        hits = enrich(locator, "r", query, [t.SearchHit(score=1.0, entry=entry)], details=True)
        [shown] = at_definitions(locator, "r", query, hits.hits)
    assert shown.startLine == start, (query, shown)


def test_the_declaration_pointed_at_leads_the_reasons_within_their_bound(tmp_path: Path) -> None:
    others = [f"symbol:jinja2.environment.other_{n}" for n in range(4)]
    reasons = ["path-name-match", *others, "content-match"]
    with ViewStore(tmp_path / "views.db", default_registry()) as views:
        views.apply(records(PATH, BODY), {})
        entry = t.EntryView(key=f"repo/r/file/{PATH}", exists=True, kind="File", path=PATH)
        hit = t.SearchHit(score=1.0, entry=entry, reasons=reasons)
        [shown] = at_definitions(HitLocator(views), "r", "where is Environment defined", [hit])
    assert len(shown.reasons) == 6, shown.reasons
    assert shown.reasons[0] == "path-name-match" and shown.reasons[-1] == "content-match"
    assert shown.reasons[1].endswith(".Environment") and shown.reasons[2:5] == others[:3]
