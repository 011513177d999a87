"""A users query for a static method qualified by its type (`what calls HttpResponse.json`)
counts as users the files calling it through that type, not those calling another type's
method of the name through a value. QA on mswjs/msw: generator.test.ts
(`fetch(...).then((response) => response.json())`) and http.test-d.ts (`await
request.json()`) were marked `uses:json`, since they also name HttpResponse; a static method
is only ever called as `HttpResponse.json(...)`; and a file calling both pointed its hit at
the value's `json()` (query_api/retrieval/use_sites.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from query_api.retrieval.users_first import is_static, member_users
from tests.integration.mcp_helpers import call, write_files
from tests.integration.memory_rig import memory_rig

pytestmark = pytest.mark.anyio

FILES = {
    "src/HttpResponse.ts": (
        "export class HttpResponse extends Response {\n"
        "  static json(body: unknown): HttpResponse {\n"
        "    return new HttpResponse(JSON.stringify(body))\n  }\n}\n"
    ),
    "src/handler.ts": (
        "import { HttpResponse } from './HttpResponse'\n\n"
        "export function resolve(): HttpResponse {\n"
        "  return HttpResponse.json({ id: 1 })\n}\n"
    ),
    # names HttpResponse, calls a fetch Response's json()
    "src/client.ts": (
        "import { HttpResponse } from './HttpResponse'\n\n"
        "export async function read(input: string): Promise<unknown> {\n"
        "  const mocked: HttpResponse | null = null\n"
        "  return fetch(input).then((response) => response.json())\n}\n"
    ),
    # calls a fetch Response's json() above its call of HttpResponse.json
    "src/proxy.ts": (
        "import { HttpResponse } from './HttpResponse'\n\n"
        "export async function proxy(input: string): Promise<HttpResponse> {\n"
        "  const data = await fetch(input).then((response) => response.json())\n"
        "  return HttpResponse.json(data)\n}\n"
    ),
}


async def test_a_static_method_is_used_through_its_type(tmp_path: Path) -> None:
    write_files(tmp_path / "ws" / "repo", FILES)
    async with memory_rig(tmp_path, index=True) as (_, s):
        query = "what calls HttpResponse.json"
        found = await call(s, "repocontext_search", {"repoId": "repo", "query": query})
        users = [h["entry"]["path"] for h in found["hits"] if "uses:json" in h["reasons"]]
        assert sorted(users) == ["src/handler.ts", "src/proxy.ts"], found["hits"]
        # the hit points at the call through the type, not at the value's json() above it
        proxy = next(h for h in found["hits"] if h["entry"]["path"] == "src/proxy.ts")
        assert proxy["snippet"] == "5: return HttpResponse.json(data)", proxy


def test_member_users_through_a_type() -> None:
    bodies = {
        "a.ts": "HttpResponse.json({})\n",
        "b.ts": "response.json()\n",
        "c.ts": "msw.HttpResponse.json({})\n",
    }
    assert set(member_users("json", bodies, calls=True)) == {"a.ts", "b.ts", "c.ts"}
    through = member_users("json", bodies, calls=True, through="HttpResponse")
    assert set(through) == {"a.ts", "c.ts"}


def test_static_signatures() -> None:
    assert is_static("static json<BodyType extends JsonBodyType>(body?: BodyType)")
    assert is_static("public static String wrap(final String str, final int width)")
    assert is_static("public static function create(): self")
    assert not is_static("json(): Promise<BodyType>")
    assert not is_static("public String wrap(final String str)")
    assert not is_static("const staticPaths = []")
