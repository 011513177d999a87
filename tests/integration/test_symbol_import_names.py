"""Outline, related and changed name Python declarations as code imports them (issue 24
item 1): in a src layout `flask.testing.FlaskClient`, not `src.flask.testing.FlaskClient`, the
rule search follows; a folder with an `__init__.py` stays in the name. Real app, real MCP
client over the SDK's in-memory transport."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call, wait_for
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

TESTING = "class FlaskClient:\n    def open(self, path):\n        return path\n"
USER = (
    "from flask.testing import FlaskClient\n\n\n"
    "def test_open():\n    assert FlaskClient().open('/') == '/'\n"
)
HELPER = "from flask.testing import FlaskClient\n\n\ndef client():\n    return FlaskClient()\n"


async def test_outline_and_related_show_import_names_in_a_src_layout(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    (repo / "src" / "flask").mkdir(parents=True)
    (repo / "src" / "flask" / "__init__.py").write_text('"""Flask."""\n')
    (repo / "src" / "flask" / "testing.py").write_text(TESTING)
    (repo / "src" / "flask" / "helpers.py").write_text(HELPER)
    (repo / "tests").mkdir()
    (repo / "tests" / "test_testing.py").write_text(USER)
    async with memory_rig(tmp_path, index=True) as (_, s):
        where = {"repoId": "repo", "path": "src/flask/testing.py"}

        async def outlined() -> bool:
            return bool((await call(s, "repocontext_outline", where)).get("symbols"))

        await wait_for(outlined, what="symbols of src/flask/testing.py")
        outline = await call(s, "repocontext_outline", where)
        assert [x["fullyQualifiedName"] for x in outline["symbols"]] == [
            "flask.testing.FlaskClient",
            "flask.testing.FlaskClient.open",
        ]

        related = await call(s, "repocontext_related", where)
        dependents = {(d["path"], d["symbol"]) for d in related["dependents"]}
        assert dependents == {
            ("src/flask/helpers.py", "flask.helpers.client"),
            ("tests/test_testing.py", "test_testing.test_open"),  # tests/ is no package
        }
        assert {(d["path"], d["symbol"]) for d in related["tests"]} == {
            ("tests/test_testing.py", "test_testing.test_open")
        }
        assert not any("src." in str(v) for v in (outline, related))

        # changed names its dependents the same way (no watcher here: the edit waits)
        (repo / "src" / "flask" / "testing.py").write_text(TESTING + "\n# edited\n")
        changed = await call(s, "repocontext_changed", {"repoId": "repo", "path": str(repo)})
        assert changed["updated"] == ["src/flask/testing.py"]
        assert ("src/flask/helpers.py", "flask.helpers.client") in {
            (d["path"], d["symbol"]) for d in changed["dependents"]
        }
