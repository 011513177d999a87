"""A JS/TS template literal holding another in a placeholder (`${`${path}/*`}`) is one
string: its `/*` opens no block comment. QA on remix-run/react-router: `what calls
matchRoutes` pointed hooks.tsx at its import (`  matchRoutes,`, line 50), not at the call
(865): a warning's `path="${parentPath === "/" ? "*" : `${parentPath}/*`}"` read as a
comment's start, and every line down to the next doc comment's `*/` as inside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import STRING, outside_block_comments
from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

HOOKS = """import {
  joinPaths,
  matchRoutes,
} from "./utils";

export function useRoutesImpl(routes: string[], parentPath: string, pathname: string) {
  warning(
    false,
    `You rendered descendant <Routes> (or called \\`useRoutes()\\`) at ` +
      `path="${parentPath === "/" ? "*" : `${parentPath}/*`}">.`,
  );
  let remaining = joinPaths([parentPath, pathname]);
  let matches = remaining === "/"
    ? null
    : matchRoutes(routes, { pathname: remaining });
  return matches;
}

/**
 * Another hook.
 */
export function useOther() {
  return null;
}
"""
UTILS = """export function matchRoutes(routes: string[], location: { pathname: string }) {
  return routes.filter((route) => route === location.pathname);
}

export function joinPaths(paths: string[]): string {
  return paths.join("/");
}

function warning(cond: boolean, message: string) {}
"""


def test_a_nested_template_is_one_string() -> None:
    line = '      `path="${parentPath === "/" ? "*" : `${parentPath}/*`}">.`,'
    assert STRING.sub('""', line).strip() == '"",'
    assert outside_block_comments([line, "  matchRoutes(routes);"])[1].strip() == (
        "matchRoutes(routes);"
    )
    escaped = "    `called \\`useRoutes()\\`) at /* not a comment */ ` +"
    assert STRING.sub('""', escaped).strip() == '"" +'


async def test_the_call_after_it_is_pointed_at(tmp_path: Path) -> None:
    files = {"src/hooks.tsx": HOOKS, "src/utils.ts": UTILS}
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(
            t.SearchArgs(repoId="repo", query="what calls matchRoutes")
        )
        hit = next(h for h in answer.hits if h.entry.path == "src/hooks.tsx")
        assert (hit.snippet or "").startswith("15: : matchRoutes(routes"), hit.snippet
