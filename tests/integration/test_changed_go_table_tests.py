"""repocontext_changed names a Go test that depends on an updated file by its test function,
not by the fields of its table (QA on go-kratos/kratos: an edit of metadata/metadata.go
listed 29 symbols of metadata_test.go, 15 of them table fields such as
`metadata.TestMetadata_Clone.m`), as related's `tests` do (tests/query_api/
test_go_table_tests.py). Real app, real MCP client session, real views."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import call
from tests.integration.memory_rig import memory_rig
from tests.query_api.test_go_table_tests import PARAMS, TABLE_TEST

pytestmark = pytest.mark.anyio


async def test_changed_names_a_table_test_by_its_function(tmp_path: Path) -> None:
    repo = tmp_path / "ws" / "repo"
    repo.mkdir(parents=True)
    (repo / "params.go").write_text(PARAMS)
    (repo / "params_test.go").write_text(TABLE_TEST)
    async with memory_rig(tmp_path, index=True) as (_app, session):
        (repo / "params.go").write_text(PARAMS + "// edited\n")
        changed = await call(session, "repocontext_changed", {"repoId": "repo", "path": "."})
        assert changed["updated"] == ["params.go"]
        symbols = [d["symbol"] for d in changed["dependents"]]
        assert "gotiny.TestNew" in symbols, symbols
        assert all(not s.startswith("gotiny.TestNew.") for s in symbols), symbols
