"""outline / related / changed and symbol-aware search, end to end over MCP (real server,
real client) on a small multi-language fixture repository."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from processors.tokens import count_tokens
from tests.integration.mcp_helpers import (
    call,
    call_error,
    stdio_session,
    wait_caught_up,
    wait_for,
    wait_indexed,
)

pytestmark = pytest.mark.anyio

ORDERS = '''"""Orders."""
from shop.billing import Invoice


class OrderService:
    def place(self, order: "Order") -> Invoice:
        return Invoice(order)

    def cancel(self, order_id: str) -> None:
        pass


def make_service() -> OrderService:
    return OrderService()
'''

BILLING = """class Invoice:
    def __init__(self, order):
        self.order = order


class Unrelated:
    def place(self):
        return 1
"""

CHECKOUT = """from shop.orders import OrderService


def checkout(cart):
    service = OrderService()
    return service.place(cart)
"""

TEST_ORDERS = """from shop.orders import make_service


class OrderServiceTests:
    def test_place(self):
        assert make_service() is not None
"""

CONFUSED = """class OrderService:  # same simple name, another module
    pass


def local_use():
    return OrderService()
"""

GO = """package store

import "example.com/shop/billing"

type Cart struct{ Items []string }

func (c *Cart) Total() int { return billing.Sum(c.Items) }
"""


# a React front end: components reached through a barrel and used as JSX elements
BUTTON = "export function Button(): JSX.Element { return <button />; }\n"
COMPONENTS_INDEX = "export * from './Button';\n"
PAGE = """import { Button } from '../components';

export function Page() {
  return <main><Button /></main>;
}
"""

# a path alias (tsconfig `paths`, JSONC) naming the same component
TSCONFIG = """{
  // `@/x` is `web/x`
  "compilerOptions": { "paths": { "@/*": ["./web/*"], }, },
}
"""
NAV = "import { Button } from '@/components/Button';\nexport const Nav = () => <Button />;\n"


def write_repo(root: Path) -> Path:
    files = {
        "web/components/Button.tsx": BUTTON,
        "web/components/index.ts": COMPONENTS_INDEX,
        "web/app/Page.tsx": PAGE,
        "web/app/Nav.tsx": NAV,
        "web/legacy/Button.tsx": BUTTON,
        "tsconfig.json": TSCONFIG,
        "shop/__init__.py": "",
        "shop/orders.py": ORDERS,
        "shop/billing.py": BILLING,
        "shop/checkout.py": CHECKOUT,
        "shop/legacy.py": CONFUSED,
        "tests/test_orders.py": TEST_ORDERS,
        "store/cart.go": GO,
        "README.md": "# shop\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.slow  # every language's symbols end to end
async def test_outline_related_changed_and_search(tmp_path: Path) -> None:
    repo = write_repo(tmp_path / "shop")
    async with stdio_session(tmp_path / "data", str(repo)) as session:
        tools = {t.name for t in (await session.list_tools()).tools}
        assert {"repocontext_outline", "repocontext_related", "repocontext_changed"} <= tools
        await wait_indexed(session, "shop")

        async def outline(path: str) -> dict[str, Any]:
            return await call(session, "repocontext_outline", {"repoId": "shop", "path": path})

        async def has_symbols() -> bool:
            return bool((await outline("shop/orders.py")).get("symbols"))

        await wait_for(has_symbols, what="symbols of shop/orders.py")
        await wait_caught_up(session, "shop", "shop/orders.py")
        got = await outline("shop/orders.py")
        assert got["exists"] is True
        assert got["fullReadTokenCount"] == count_tokens(ORDERS)
        assert [(s["fullyQualifiedName"], s["kind"], s["startLine"]) for s in got["symbols"]] == [
            ("shop.orders.OrderService", "Type", 5),
            ("shop.orders.OrderService.place", "Method", 6),
            ("shop.orders.OrderService.cancel", "Method", 9),
            ("shop.orders.make_service", "Function", 13),
        ]
        assert got["symbols"][1]["signature"] == ('def place(self, order: "Order") -> Invoice')
        assert got["symbols"][0]["endLine"] == 10
        assert got["freshness"]["eventsBehind"] >= 0  # every answer says how fresh it is

        readme = await outline("README.md")
        assert readme["exists"] is True  # outlined by its headings (markdown_outline.py)
        assert [(x["fullyQualifiedName"], x["kind"]) for x in readme["symbols"]] == [
            ("shop", "Other")
        ]
        assert readme["fullReadTokenCount"] == count_tokens("# shop\n")
        missing = await outline("nope.py")
        assert missing["exists"] is False and missing.get("fullReadTokenCount") is None

        # one path normalisation for every path-taking tool: an absolute path inside the
        # root, `..`, `./` and backslashes name the same file; a path that leaves the
        # repository is refused with the root named, never answered as a missing file
        root = str(repo.resolve())
        for spelling in (f"{root}/shop/orders.py", "shop/../shop/orders.py", ".\\shop\\orders.py"):
            for tool in ("repocontext_outline", "repocontext_related"):
                same = await call(session, tool, {"repoId": "shop", "path": spelling})
                assert (same["path"], same["exists"]) == ("shop/orders.py", True), (tool, spelling)
        for escaping in ("../../etc/passwd", "/etc/passwd", str(tmp_path / "elsewhere.py")):
            for tool in ("repocontext_outline", "repocontext_related", "repocontext_changed"):
                error = await call_error(session, tool, {"repoId": "shop", "path": escaping})
                assert "`path`" in error and "leaves the repository" in error, (tool, error)
                assert f"outside the indexed root {root}" in error

        go = await outline("store/cart.go")
        assert [s["fullyQualifiedName"] for s in go["symbols"]] == [
            "store.Cart",
            "store.Cart.Items",
            "store.Cart.Total",
        ]

        related = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "shop/orders.py"}
        )
        assert related["imports"] == ["shop.billing"]
        dependents = {(d["path"], d["symbol"]) for d in related["dependents"]}
        # checkout imports shop.orders.OrderService: qualified, so it resolves here; legacy.py
        # declares its own OrderService, so its use is not a dependent of orders.py
        assert ("shop/checkout.py", "shop.checkout.checkout") in dependents
        assert ("tests/test_orders.py", "test_orders.OrderServiceTests.test_place") in (dependents)
        assert not any(path == "shop/legacy.py" for path, _ in dependents)
        tests = {(d["path"], d["symbol"]) for d in related["tests"]}
        assert ("tests/test_orders.py", "test_orders.OrderServiceTests") in tests
        assert ("tests/test_orders.py", "test_orders.OrderServiceTests.test_place") in tests

        billing = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "shop/billing.py"}
        )
        billing_deps = {(d["path"], d["symbol"]) for d in billing["dependents"]}
        # Invoice is imported by name; Unrelated.place is a member: an unqualified
        # `service.place(...)` call in checkout.py must not be attributed to it
        assert billing_deps == {
            ("shop/orders.py", "shop.orders.OrderService.place"),
        }

        # TSX: `<Button />` is a reference; `../components` leads to Button.tsx through the
        # barrel's re-export, `@/components/Button` through tsconfig.json's `paths`
        button = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "web/components/Button.tsx"}
        )
        assert button["dependents"] == [
            {"symbol": "Nav", "path": "web/app/Nav.tsx"},  # through the tsconfig alias
            {"symbol": "Page", "path": "web/app/Page.tsx"},
        ]
        nav = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "web/app/Nav.tsx"}
        )
        assert nav["imports"] == ["web/components/Button"]  # `@/components/Button`, mapped
        # the alias names web/components/Button.tsx, not any other `Button`
        legacy = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "web/legacy/Button.tsx"}
        )
        assert legacy.get("dependents", []) == []
        barrel = await call(
            session, "repocontext_related", {"repoId": "shop", "path": "web/components/index.ts"}
        )
        assert barrel["imports"] == ["web/components/Button"]

        # symbols join BM25: the declaring file ranks first and says which symbol matched
        result = await call(
            session, "repocontext_search", {"repoId": "shop", "query": "make service"}
        )
        top = result["hits"][0]
        assert top["entry"]["path"] == "shop/orders.py"
        assert "symbol:shop.orders.make_service" in top["reasons"]
        reasons = top["reasons"]
        assert reasons.index("symbol:shop.orders.make_service") < reasons.index("content-match")

        # changed: nothing yet; then edit, add and delete files on disk
        nothing = await call(session, "repocontext_changed", {"repoId": "shop", "path": str(repo)})
        assert (
            nothing.get("added", []),
            nothing.get("updated", []),
            nothing.get("removed", []),
        ) == ([], [], [])

        session_args = {"repoId": "shop", "path": str(repo)}
        (repo / "shop/orders.py").write_text(ORDERS + "\n# edited\n", encoding="utf-8")
        (repo / "shop/new.py").write_text("X = 1\n", encoding="utf-8")
        (repo / "shop/legacy.py").unlink()
        changed = await call(session, "repocontext_changed", session_args)
        # the watcher may already have indexed some of it; whatever it has not, changed reports
        assert set(changed["added"]) <= {"shop/new.py"}
        assert set(changed["updated"]) <= {"shop/orders.py"}
        assert set(changed["removed"]) <= {"shop/legacy.py"}
        if "shop/orders.py" in changed["updated"]:
            deps = {(d["path"], d["symbol"]) for d in changed["dependents"]}
            assert ("shop/checkout.py", "shop.checkout.checkout") in deps

        scoped = await call(
            session, "repocontext_changed", {"repoId": "shop", "path": str(repo / "store")}
        )
        assert (scoped.get("added", []), scoped.get("updated", []), scoped.get("removed", [])) == (
            [],
            [],
            [],
        )
        relative = await call(session, "repocontext_changed", {"repoId": "shop", "path": "store"})
        assert (
            relative.get("added", []),
            relative.get("updated", []),
            relative.get("removed", []),
        ) == ([], [], [])

        # deleting a file removes its symbols and its reverse references
        async def legacy_gone() -> bool:
            gone = await outline("shop/legacy.py")
            return gone["exists"] is False

        await wait_for(legacy_gone, what="legacy.py to leave the index")

        error = await call_error(
            session, "repocontext_changed", {"repoId": "shop", "path": str(repo / "README.md")}
        )
        assert "is a file; changed takes a directory" in error, error
        error = await call_error(
            session, "repocontext_changed", {"repoId": "shop", "path": str(tmp_path)}
        )
        assert "outside" in error
