"""A file importing the name a users query asks about under another name (`import { proxyaddr
as proxyAddr }`, Python's `from x import y as z`) points at the calls of that alias, not at
the import. QA on tinyhttp/tinyhttp: `what calls proxyaddr` pointed packages/app/src/request.ts
at line 6, its import, where `getIP` and `getIPs` call `proxyAddr(req, trust)`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.use_sites import at_use_sites
from tests.query_api.located import located_hits

REQUEST = "\n".join(
    [
        "import { all, proxyaddr as proxyAddr, type Trust } from './addr'",  # 1
        "",
        "export const getProtocol = (req: Request): string => {",  # 3
        "  return req.secure ? 'https' : 'http'",  # 4
        "}",  # 5
        "",
        "export const getIP = (req: Request, trust: Trust): string =>",  # 7
        "  proxyAddr(req, trust).replace(/^.*:/, '')",  # 8
        "",
        "export const getIPs = (req: Request, trust: Trust): string[] => all(req, trust)",  # 10
        "",
    ]
)
PYTHON = "\n".join(
    [
        "from .addr import proxyaddr as proxy_addr",  # 1
        "",
        "",
        "def get_ip(req):",  # 4
        "    return proxy_addr(req)",  # 5
        "",
    ]
)


def test_the_calls_of_an_aliased_import_are_its_uses(tmp_path: Path) -> None:
    [hit] = located_hits(
        tmp_path, {"src/request.ts": REQUEST}, "what calls proxyaddr", at_use_sites
    )
    assert (hit.startLine, hit.endLine) == (7, 8), hit
    assert hit.snippet == "8: proxyAddr(req, trust).replace(/^.*:/, '')", hit


def test_a_python_alias_is_used_by_its_calls(tmp_path: Path) -> None:
    [hit] = located_hits(tmp_path, {"app.py": PYTHON}, "who calls proxyaddr", at_use_sites)
    assert hit.snippet == "5: return proxy_addr(req)", hit


def test_an_import_used_under_its_own_name_keeps_its_uses(tmp_path: Path) -> None:
    plain = REQUEST.replace("proxyaddr as proxyAddr", "proxyAddr")
    [hit] = located_hits(tmp_path, {"src/request.ts": plain}, "what calls proxyAddr", at_use_sites)
    assert hit.snippet == "8: proxyAddr(req, trust).replace(/^.*:/, '')", hit
