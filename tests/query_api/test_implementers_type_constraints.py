"""`what extends X` reads the types declared as extending or implementing X, not TypeScript's
other `extends`: a generic constraint (`<Handlers extends Array<RequestHandler>>`) or a
conditional type (`K extends 'websocket' ? WebSocketHandler : RequestHandler`). QA on
mswjs/msw: `what extends RequestHandler` ranked isHandlerKind.ts and executeHandlers.ts,
which declare no subclass, 2nd and 3rd, marked `uses:RequestHandler`, between HttpHandler.ts
and GraphQLHandler.ts (query_api/retrieval/users_first.implementers)."""

from __future__ import annotations

import pytest

from query_api.retrieval.users_first import implementers

EXTENDING = [
    "export class HttpHandler extends RequestHandler<\n  HttpHandlerInfo,\n> {}",
    "class MyHandler extends RequestHandler {\n}",
    "export abstract class Base<T extends Info = Info> extends RequestHandler<T> {}",
    "export default class extends RequestHandler {}",
    "const Anonymous = class extends RequestHandler {}",
    "interface Strict extends Other, RequestHandler {}",
    "final class EnvLookup extends Object implements Comparable<String>, RequestHandler {",
    "public class Foo\n    extends RequestHandler {\n}",
    "class Qualified extends handlers.RequestHandler {}",
    "impl RequestHandler for Foo {}",
    "class Foo(RequestHandler):\n    pass",
    "class Foo : RequestHandler() {}",
]
NOT_EXTENDING = [
    # a generic constraint
    "export const executeHandlers = async <Handlers extends Array<RequestHandler>>({",
    "function run<H extends RequestHandler>(handler: H): void {}",
    "class Registry<H extends RequestHandler> {}",
    # a conditional type
    "): input is K extends 'websocket' ? WebSocketHandler : RequestHandler => {",
    "type Handler<T> = T extends RequestHandler ? T : never",
    # a comment
    "// HttpHandler extends RequestHandler",
]


@pytest.mark.parametrize("body", EXTENDING)
def test_a_type_declared_extending_the_name_is_found(body: str) -> None:
    assert implementers("RequestHandler", {"a.ts": body}) == {"a.ts"}


@pytest.mark.parametrize("body", NOT_EXTENDING)
def test_other_extends_are_no_subtype(body: str) -> None:
    assert implementers("RequestHandler", {"a.ts": body}) == set()
