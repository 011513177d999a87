"""Import the MCP SDK's server parts without the SDK's package-level imports.

`import mcp.server.stdio` runs `mcp/__init__.py` (the client session, session groups, the stdio
client) and `mcp/server/__init__.py` (FastMCP, which brings sse-starlette and uvicorn's CLI)
before the module asked for. A server process uses none of those. `defer_package_init` puts a
package into `sys.modules` whose `__init__` has not run yet: its submodules import as usual
(the package's `__path__` is set), and the first attribute the package itself is asked for
that no imported submodule provides runs the real `__init__` then (PEP 562 `__getattr__`), so
`from mcp import ClientSession` still works, later and at the usual cost.
"""

from __future__ import annotations

import importlib.util
import sys
import threading

SERVER_SIDE_PACKAGES = ("mcp", "mcp.server")


def defer_package_init(name: str) -> None:
    """Register package `name` with its `__init__` deferred (nothing if already imported or
    not installed as a package; its parent must be imported or deferred first)."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    module = importlib.util.module_from_spec(spec)
    loader, lock = spec.loader, threading.Lock()

    def rest_of_package(attr: str) -> object:
        with lock:
            if "__getattr__" in module.__dict__:  # the first miss runs the real __init__
                del module.__dict__["__getattr__"]
                loader.exec_module(module)
        try:
            return module.__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    module.__dict__["__getattr__"] = rest_of_package
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)


def defer_sdk_package_inits() -> None:
    """For a process that serves MCP (it never uses the SDK's client)."""
    for name in SERVER_SIDE_PACKAGES:
        defer_package_init(name)
