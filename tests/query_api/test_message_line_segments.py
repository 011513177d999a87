"""A pasted message is pointed at the line writing all of it, not at the first line sharing
its longest segment. QA on remix-run/react-router: `Error: useNavigate() may be used only in
the context of a <Router> component.` pointed hooks.tsx at line 95, useHref's `useHref() may
be used only in the context of a <Router> component.`, the first of six hooks writing that
sentence, not at useNavigate's (379): the call's parentheses split the name off the longest
segment, and the name decides between the lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

HOOKS = """import { invariant } from "./invariant";

export function useHref(to: string): string {
  invariant(
    useInRouterContext(),
    `useHref() may be used only in the context of a <Router> component.`,
  );
  return to;
}

export function useLocation(): string {
  invariant(
    useInRouterContext(),
    `useLocation() may be used only in the context of a <Router> component.`,
  );
  return "/";
}

export function useNavigate(): (to: string) => void {
  invariant(
    useInRouterContext(),
    `useNavigate() may be used only in the context of a <Router> component.`,
  );
  return () => {};
}

function useInRouterContext(): boolean {
  return true;
}
"""
QUERY = "Error: useNavigate() may be used only in the context of a <Router> component."


async def test_the_line_writing_the_whole_message_is_pointed_at(tmp_path: Path) -> None:
    files = {
        "src/hooks.tsx": HOOKS,
        "src/invariant.ts": "export function invariant(value: unknown, message: string) {}\n",
    }
    async with indexed_app(tmp_path, files) as app:
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=QUERY))
        hit = next(h for h in answer.hits if h.entry.path == "src/hooks.tsx")
        assert (hit.snippet or "").startswith("22: `useNavigate() may be used"), hit.snippet
        assert (hit.startLine, hit.endLine) == (19, 25)
