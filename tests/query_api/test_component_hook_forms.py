"""`where is the Link component defined`, `where is the useBlocker hook`, `what uses the Link
component`, `what calls the useBlocker hook`: a React component or hook is named with its
kind as a class or a function is. QA on remix-run/react-router: `where is the Link component
defined` and `where is the Form component` matched no definition form and ranked
dom/ssr/routes.tsx (`getRouteModuleComponent`) and rsc/server.rsc.ts (`formState`) first,
dom/lib.tsx, declaring `export const Link = React.forwardRef(...)` and `Form`, fifth and
second at a doc comment; `what uses the Link component` and `what calls the useBlocker hook`
matched no users form. A word before the kind (`the header component`) names nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.definition_sites import asked_kinds, defined_name
from query_api.retrieval.form_words import keyword_text
from query_api.retrieval.users_first import used_name
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio


def test_a_component_or_hook_is_named_with_its_kind() -> None:
    assert defined_name("where is the Link component defined") == "Link"
    assert defined_name("where is the Form component") == "Form"
    assert defined_name("where is the useBlocker hook defined?") == "useBlocker"
    assert defined_name("which file defines the NavLink component") == "NavLink"
    assert defined_name("the ScrollRestoration component") == "ScrollRestoration"
    assert asked_kinds("where is the Link component defined") == frozenset()
    assert keyword_text("where is the Link component defined").split() == [
        "where",
        "is",
        "the",
        "Link",
    ]
    # as before
    assert defined_name("where is the useBlocker hook") == "useBlocker"
    assert defined_name("where is Link defined") == "Link"


def test_a_word_before_the_kind_names_nothing() -> None:
    assert defined_name("where is the header component defined") is None
    assert defined_name("where is the search component") is None
    assert defined_name("where is the routing hook defined") is None


def test_the_users_of_a_component_or_hook() -> None:
    assert used_name("what uses the Link component") == "Link"
    assert used_name("what renders the Outlet component?") == "Outlet"
    assert used_name("what calls the useBlocker hook") == "useBlocker"
    assert used_name("which components use the useFetcher hook") == "useFetcher"
    assert used_name("where is the Link component used") == "Link"


LIB = """import * as React from "react";

export interface LinkProps {
  to: string;
}

/**
 * A progressively enhanced anchor.
 */
export const Link = React.forwardRef<HTMLAnchorElement, LinkProps>(
  function LinkWithRef({ to }, ref) {
    return <a href={to} ref={ref} />;
  },
);

export const Form = React.forwardRef<HTMLFormElement, {}>(function FormWithRef(props, ref) {
  return <form ref={ref} {...props} />;
});
"""
ROUTES = """// Each route module's component is defined here, with a link to its loader.
export function getRouteModuleComponent(component: unknown, link: string) {
  // the component is defined by the route module; the link component is defined elsewhere
  return component ?? link;
}

export function noComponentDefinedError(link: string) {
  return new Error(`No component defined for the link ${link}`);
}
"""


async def test_the_component_s_declaration_ranks_first(tmp_path: Path) -> None:
    files = {"src/lib.tsx": LIB, "src/routes.tsx": ROUTES}
    async with indexed_app(tmp_path, files) as app:
        query = "where is the Link component defined"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        first = answer.hits[0]
        assert first.entry.path == "src/lib.tsx", [h.entry.path for h in answer.hits]
        assert (first.snippet or "").startswith("10: export const Link"), first.snippet
