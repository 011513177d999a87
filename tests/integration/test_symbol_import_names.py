"""Outline, related and changed name Python declarations as code imports them (issue 24
item 1): in a src layout `flask.testing.FlaskClient`, not `src.flask.testing.FlaskClient`, the
rule search follows; a folder with an `__init__.py` stays in the name. Real app, real MCP
client over the SDK's in-memory transport."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, wait_caught_up, wait_for
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

TESTING = "class FlaskClient:\n    def open(self, path):\n        return path\n"
USER = (
    "from flask.testing import FlaskClient\n\n\n"
    "def test_open():\n    assert FlaskClient().open('/') == '/'\n"
)
HELPER = "from flask.testing import FlaskClient\n\n\ndef client():\n    return FlaskClient()\n"
# a relative import: resolved against the file's path (src.flask.testing), shown as imported
APP = "from .testing import FlaskClient\n\n\ndef make_test_client():\n    return FlaskClient()\n"


async def test_outline_and_related_show_import_names_in_a_src_layout(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "flask").mkdir(parents=True)
    (repo / "src" / "flask" / "__init__.py").write_text('"""Flask."""\n')
    (repo / "src" / "flask" / "testing.py").write_text(TESTING)
    (repo / "src" / "flask" / "helpers.py").write_text(HELPER)
    (repo / "src" / "flask" / "app.py").write_text(APP)
    (repo / "tests").mkdir()
    (repo / "tests" / "test_testing.py").write_text(USER)
    async with memory_rig(tmp_path, index=True) as (_, s):
        where = {"repoId": "repo", "path": "src/flask/testing.py"}

        async def outlined() -> bool:
            return bool((await call(s, "repocontext_outline", where)).get("symbols"))

        await wait_for(outlined, what="symbols of src/flask/testing.py")
        await wait_caught_up(s, "repo", "src/flask/testing.py")
        outline = await call(s, "repocontext_outline", where)
        assert [x["fullyQualifiedName"] for x in outline["symbols"]] == [
            "flask.testing.FlaskClient",
            "flask.testing.FlaskClient.open",
        ]

        related = await call(s, "repocontext_related", where)
        dependents = {(d["path"], d["symbol"]) for d in related["dependents"]}
        assert dependents == {
            ("src/flask/app.py", "flask.app.make_test_client"),
            ("src/flask/helpers.py", "flask.helpers.client"),
            ("tests/test_testing.py", "test_testing.test_open"),  # tests/ is no package
        }
        assert {(d["path"], d["symbol"]) for d in related["tests"]} == {
            ("tests/test_testing.py", "test_testing.test_open")
        }
        app_related = await call(s, "repocontext_related", {**where, "path": "src/flask/app.py"})
        assert app_related["imports"] == ["flask.testing"]  # was src.flask.testing

        # the bundle's `symbol:` reasons as search gives them (paths: an entry sending a whole
        # body names none, it holds every declaration); recall and scan's names too
        task = {"repoId": "repo", "task": "make_test_client FlaskClient"}
        bundle = await call(s, "repocontext_context", {**task, "detail": "paths"})
        whole = await call(s, "repocontext_context", task)
        assert not [
            r
            for e in whole["entries"]
            if "contentHash" in e
            for r in e["reasons"]
            if "symbol:" in r
        ]
        symbol_reasons = [r for e in bundle["entries"] for r in e["reasons"] if "symbol:" in r]
        search = await call(s, "repocontext_search", {"repoId": "repo", "query": task["task"]})
        assert symbol_reasons and all(
            r in {r for h in search["hits"] for r in h["reasons"]} for r in symbol_reasons
        ), (symbol_reasons, search["hits"])
        key = "repo/repo/symbol/flask.testing.FlaskClient"
        recalled = await call(s, "repocontext_recall", {"key": key})
        assert recalled["fullyQualifiedName"] == "flask.testing.FlaskClient"
        assert recalled["key"] == "repo/repo/symbol/src.flask.testing.FlaskClient"  # stored
        scanned = await call(s, "repocontext_scan", {"repoId": "repo", "scope": "Symbols"})
        names = {e["fullyQualifiedName"] for e in scanned["entries"]}
        assert "flask.app.make_test_client" in names, names
        shown = (outline, related, app_related, bundle, recalled["fullyQualifiedName"], names)
        assert not any("src." in str(v) for v in shown)

        # changed names its dependents the same way (no watcher here: the edit waits)
        (repo / "src" / "flask" / "testing.py").write_text(TESTING + "\n# edited\n")
        changed = await call(s, "repocontext_changed", {"repoId": "repo", "path": str(repo)})
        assert changed["updated"] == ["src/flask/testing.py"]
        assert ("src/flask/helpers.py", "flask.helpers.client") in {
            (d["path"], d["symbol"]) for d in changed["dependents"]
        }


async def test_neighbors_name_a_linked_declaration_as_recall_does(tmp_path: Path) -> None:
    """QA on pallets/jinja: a note linked to `jinja2.filters.do_attr` (src layout) listed the
    symbol in neighbors as `src.jinja2.filters.do_attr`, the stored name, where recall, scan,
    search and outline say `jinja2.filters.do_attr`. The key stays the stored one."""
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "flask").mkdir(parents=True)
    (repo / "src" / "flask" / "__init__.py").write_text('"""Flask."""\n')
    (repo / "src" / "flask" / "testing.py").write_text(TESTING)
    async with memory_rig(tmp_path, index=True) as (_, s):
        where = {"repoId": "repo", "path": "src/flask/testing.py"}

        async def outlined() -> bool:
            return bool((await call(s, "repocontext_outline", where)).get("symbols"))

        await wait_for(outlined, what="symbols of src/flask/testing.py")
        note = {
            "repoId": "repo",
            "topic": "gotchas",
            "title": "the test client",
            "addLinks": {"about": ["repo/repo/symbol/flask.testing.FlaskClient"]},
        }
        written = await call(s, "repocontext_remember", note)
        walked = await call(s, "repocontext_neighbors", {"key": written["key"]})
        [symbol] = walked["neighbors"]
        assert symbol["key"] == "repo/repo/symbol/src.flask.testing.FlaskClient"
        assert symbol["fullyQualifiedName"] == "flask.testing.FlaskClient"
