"""`where is Form defined` means the file's own `Form`, not another declaration's member of
the name. QA on remix-run/react-router: dom/lib.tsx declares `export const Form =
React.forwardRef(...)` (line 1922) and `interface FetcherWithComponents { Form: ... }` (line
2748); the member won, being no variable, and lay past the stored text, so the hit kept
SharedFormProps' lines (1739). A member method still comes before a variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import declaration_of
from schemas import tools as t
from streams.stores.views.symbol_spans import SymbolSpan
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

LIB = """import * as React from "react";

interface SharedFormProps {
  method?: string;
}

export const Form = React.forwardRef<HTMLFormElement, SharedFormProps>(
  function FormWithRef(props, ref) {
    return <form ref={ref} {...props} />;
  },
);

export interface FetcherWithComponents {
  Form: typeof Form;
  load: (href: string) => void;
}
"""


async def test_the_top_level_declaration_is_pointed_at(tmp_path: Path) -> None:
    files = {"src/lib.tsx": LIB, "src/other.ts": "export const formMethod = 'get';\n"}
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="where is Form defined")
        )
        hit = next(h for h in answer.hits if h.entry.path == "src/lib.tsx")
        assert (hit.snippet or "").startswith("7: export const Form"), hit.snippet


def test_a_member_method_still_comes_before_a_variable() -> None:
    symbols = [
        SymbolSpan("run", "run", 1, 1, "Field"),
        SymbolSpan("App.run", "run", 3, 5, "Method"),
    ]
    found = declaration_of(symbols, ["run"])
    assert found is not None and found.fq_name == "App.run"
