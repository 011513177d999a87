"""The users of a Java class include the files importing its nested types or its static
members only (`import a.RealCart.LineEntry`, `import static a.RealCart.cartOf`): QA on
google/guice, where `what uses RealMapBinder` listed the code naming RealMapBinder and left
out SpiUtils.java and MapBinderTest.java, which import `RealMapBinder.mapOf` and
`RealMapBinder.ProviderMapEntry`."""

from __future__ import annotations

from pathlib import Path

import pytest

from schemas import tools as t
from tests.ingested import indexed_app

pytestmark = pytest.mark.anyio

FILES = {
    "src/org/shop/core/RealCart.java": (
        "package org.shop.core;\n\npublic final class RealCart {\n"
        "  public static final class LineEntry { public int qty; }\n"
        '  public static String cartOf(String name) { return "cart:" + name; }\n}\n'
    ),
    "src/org/shop/use/Store.java": (
        "package org.shop.use;\n\nimport org.shop.core.RealCart;\n\n"
        "public class Store { public RealCart cart; }\n"
    ),
    "src/org/shop/use/Checkout.java": (
        "package org.shop.use;\n\nimport static org.shop.core.RealCart.cartOf;\n\n"
        'public class Checkout { String run() { return cartOf("a"); } }\n'
    ),
    "test/org/shop/core/LedgerTest.java": (
        "package org.shop.core;\n\nimport org.shop.core.RealCart.LineEntry;\n\n"
        "public class LedgerTest { int total(LineEntry e) { return e.qty; } }\n"
    ),
}


async def test_importing_a_nested_type_or_a_static_member_uses_the_class(tmp_path: Path) -> None:
    async with indexed_app(tmp_path, FILES) as app:
        query = "what uses RealCart"
        answer = await app.service.search(t.SearchArgs(repoId="repo", query=query))
        users = {h.entry.path for h in answer.hits if "uses:RealCart" in h.reasons}
        assert users == {
            "src/org/shop/use/Store.java",
            "src/org/shop/use/Checkout.java",
            "test/org/shop/core/LedgerTest.java",
        }, answer.hits
