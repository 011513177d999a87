"""Python dependents over real views fed by the real processors: package re-exports, src
layouts, absolute and relative imports, star imports, the standard library, names a function
declares or imports inside itself (split from test_symbol_dependents.py, which keeps the
shared `Repo` and the other languages)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_api.test_symbol_dependents import Repo, repo_holding


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, {}) as r:
        yield r


def test_a_python_package_re_export_is_the_module_declaration(repo: Repo) -> None:
    repo.add(
        {
            "shop/__init__.py": "from .orders import OrderService\n",
            "shop/orders.py": "class OrderService:\n    pass\n",
            "app/web.py": (
                "from shop import OrderService\n\ndef view():\n    return OrderService()\n"
            ),
            "other/orders.py": "class OrderService:\n    pass\n",
        }
    )
    # the package's __init__ imports the class to re-export it: it depends on it too
    assert repo.dependents("shop/orders.py") == [
        ("app/web.py", "app.web.view"),
        ("shop/__init__.py", "<file>"),
    ]
    assert repo.dependents("other/orders.py") == []


def test_a_src_layout_package_re_export_is_the_module_declaration(repo: Repo) -> None:
    """`src/flask/app.py` declares `src.flask.app.Flask`; `from flask import Flask` (the
    package's __init__ re-exports it) names it without the `src` the path adds."""
    repo.add(
        {
            "src/flask/__init__.py": "from .app import Flask as Flask\n",
            "src/flask/app.py": "class Flask:\n    pass\n",
            "tests/test_basic.py": (
                "import flask\nfrom flask import Flask\n\ndef test_app():\n    assert Flask('x')\n"
            ),
            "tests/conftest.py": "from flask import Flask\n\nAPP_CLASS = Flask\n",
            "other/app.py": "class Flask:\n    pass\n",
        }
    )
    assert repo.dependents("src/flask/app.py") == [
        ("src/flask/__init__.py", "<file>"),
        ("tests/conftest.py", "tests.conftest.APP_CLASS"),  # `APP_CLASS = Flask`
        ("tests/test_basic.py", "tests.test_basic.test_app"),
    ]
    assert repo.dependents("other/app.py") == []


def test_what_a_function_declares_inside_itself_is_no_one_elses_dependency(repo: Repo) -> None:
    repo.add(
        {
            "app/views.py": (
                "class View:\n"
                "    @classmethod\n"
                "    def as_view(cls):\n"
                "        def view(**kwargs):\n"
                "            return cls()\n"
                "        return view\n"
            ),
            # `view` here is a parameter: calling it says nothing about app/views.py
            "app/auth.py": (
                "def login_required(view):\n"
                "    def wrapped_view(**kwargs):\n"
                "        return view(**kwargs)\n"
                "    return wrapped_view\n"
            ),
            "app/urls.py": "from app.views import View\n\nROUTES = [View.as_view()]\n",
        }
    )
    # the call through the import, `View` read as its value too (no file-level entry left)
    assert repo.dependents("app/views.py") == [("app/urls.py", "app.urls.ROUTES")]


def test_an_absolute_import_skips_only_folders_that_are_not_packages(repo: Repo) -> None:
    """`import json; json.dumps()` is the standard library's, not src/flask/json's: with
    src/flask/__init__.py that module is `flask.json`; `from flask import json` names it."""
    repo.add(
        {
            "src/flask/__init__.py": "from . import json as json\n",
            "src/flask/json/__init__.py": "def dumps(obj):\n    return str(obj)\n",
            "src/flask/cli.py": "import json\n\ndef show():\n    return json.dumps({})\n",
            "tests/test_json.py": (
                "from flask import json\n\ndef test_dumps():\n    assert json.dumps(1)\n"
            ),
        }
    )
    assert repo.dependents("src/flask/json/__init__.py") == [
        ("src/flask/__init__.py", "<file>"),  # imports the module as a name
        ("tests/test_json.py", "tests.test_json.test_dumps"),  # calls through that name
    ]


def test_a_top_level_module_is_no_name_declared_inside_a_package(repo: Repo) -> None:
    """requests' help.py reads `chardet` (`import chardet`) as a value; its qualified name
    `chardet` ended requests/compat.py's `chardet = ...` and the skipped prefix
    `src.requests.compat` was checked as one folder only, not as the package `src.requests`
    and the module compat.py it is: help.info was listed as compat.py's dependent."""
    repo.add(
        {
            "src/requests/__init__.py": "",
            "src/requests/compat.py": "chardet = None\nbuiltin_str = str\n",
            "src/requests/help.py": (
                "import chardet\n\ndef info():\n    return {'using_chardet': chardet is not None}\n"
            ),
            "src/requests/utils.py": (
                "from .compat import builtin_str\n\ndef native(s):\n"
                "    return isinstance(s, builtin_str)\n"
            ),
            "flat/compat.py": "chardet = None\n",
        }
    )
    assert repo.dependents("src/requests/compat.py") == [
        ("src/requests/utils.py", "src.requests.utils.native")
    ]
    assert repo.dependents("flat/compat.py") == []


def test_a_python_file_importing_a_module_depends_on_it(repo: Repo) -> None:
    """requests' tests/conftest.py has `from requests.compat import urljoin`: compat.py only
    imports urljoin from urllib.parse, so no reference named one of its declarations and
    related(compat.py) listed neither conftest.py nor test_lowlevel.py. A package's
    __init__.py gains the files importing the package (test_a_package_init_s_importers_...),
    not those importing one of its modules (`import requests.compat`)."""
    repo.add(
        {
            "src/requests/__init__.py": "from .compat import urljoin\n",
            "src/requests/compat.py": "from urllib.parse import urljoin\n\nis_py3 = True\n",
            "src/requests/utils.py": "from . import compat\n\ndef f():\n    return compat.is_py3\n",
            "tests/conftest.py": "import requests\nfrom requests.compat import urljoin\n",
            "tests/test_side.py": "import requests.compat\n",
        }
    )
    assert repo.dependents("src/requests/compat.py") == [
        ("src/requests/__init__.py", "<file>"),
        ("src/requests/utils.py", "<file>"),
        ("src/requests/utils.py", "src.requests.utils.f"),
        ("tests/conftest.py", "<file>"),
        ("tests/test_side.py", "<file>"),
    ]
    assert repo.dependents("src/requests/__init__.py") == [("tests/conftest.py", "<file>")]


def test_a_name_a_python_module_imports_is_that_modules_name_too(repo: Repo) -> None:
    """requests' utils.py imports `to_native_string` from _internal_utils.py and
    tests/test_utils.py imports it `from requests.utils`: test_to_native_string was no
    dependent of _internal_utils.py (only a package's re-export was followed). A module
    declaring the name itself keeps it (`helpers.quote` is helpers.py's own)."""
    repo.add(
        {
            "src/requests/__init__.py": "",
            "src/requests/_internal_utils.py": (
                "def to_native_string(s):\n    return s\n\ndef quote(s):\n    return s\n"
            ),
            "src/requests/utils.py": (
                "from ._internal_utils import to_native_string\n\n"
                "def f(s):\n    return to_native_string(s)\n"
            ),
            "src/requests/helpers.py": (
                "from . import _internal_utils\n\ndef quote(s):\n"
                "    return _internal_utils.quote(s)\n"
            ),
            "tests/test_utils.py": (
                "from requests.utils import to_native_string\n"
                "from requests.helpers import quote\n\n"
                "def test_to_native_string():\n    assert to_native_string('x')\n\n"
                "def test_quote():\n    assert quote('x')\n"
            ),
        }
    )
    assert repo.dependents("src/requests/_internal_utils.py") == [
        ("src/requests/helpers.py", "src.requests.helpers.quote"),
        ("src/requests/utils.py", "src.requests.utils.f"),
        ("tests/test_utils.py", "tests.test_utils.test_to_native_string"),
    ]


def test_a_python_name_used_unqualified_comes_from_a_star_import_or_nowhere(repo: Repo) -> None:
    repo.add(
        {
            "shop/serializers.py": "def loads(text):\n    return text\n",
            # a parameter called `loads`, a method `s.loads()`: neither is shop's function
            "shop/config.py": (
                "def from_file(path, loads):\n    return loads(path)\n\n"
                "def open_session(s):\n    return s.loads('x')\n"
            ),
            "shop/api.py": "from .serializers import *\n\ndef read(t):\n    return loads(t)\n",
            "app/views.py": "from shop.serializers import *\n\ndef view(t):\n    return loads(t)\n",
        }
    )
    assert repo.dependents("shop/serializers.py") == [
        ("app/views.py", "app.views.view"),
        ("shop/api.py", "shop.api.read"),
    ]


def test_a_standard_library_module_is_not_a_same_named_package_module(repo: Repo) -> None:
    repo.add(
        {
            "src/flask/__init__.py": "",
            "src/flask/json/__init__.py": "def loads(text):\n    return text\n",
            # `import json` is the standard library's: src/flask/json is `flask.json`
            "src/flask/config.py": (
                "import json\n\ndef from_env(value, loads=json.loads):\n    return loads(value)\n"
            ),
            "src/flask/star.py": "from flask.json import *\n\ndef read(t):\n    return loads(t)\n",
        }
    )
    assert repo.dependents("src/flask/json/__init__.py") == [
        ("src/flask/star.py", "src.flask.star.read")
    ]


def test_a_python_module_imported_as_a_name_is_used_by_the_import(repo: Repo) -> None:
    # click's core.py: `from . import types`; its uses of `types.X` may lie past what is
    # indexed of a long file, and the import alone is its use of the module
    repo.add(
        {
            "pkg/__init__.py": "from .types import ParamType as ParamType\n",
            "pkg/types.py": "class ParamType:\n    pass\n",
            "pkg/core.py": "from . import types\n\nLIMIT = 1\n",
            "pkg/unrelated.py": "import types\n\nKIND = types.SimpleNamespace\n",
        }
    )
    assert repo.dependents("pkg/types.py") == [
        ("pkg/__init__.py", "<file>"),  # `from .types import ParamType`
        ("pkg/core.py", "<file>"),
    ]


def test_a_generic_python_base_class_is_a_reference(repo: Repo) -> None:
    # click's examples: `class URL(click.ParamType[urlparse.ParseResult])`
    repo.add(
        {
            "pkg/__init__.py": "from .types import ParamType as ParamType\n",
            "pkg/types.py": "class ParamType:\n    pass\n",
            "app/url.py": "import pkg\n\nclass URL(pkg.ParamType[str]):\n    pass\n",
        }
    )
    assert ("app/url.py", "app.url.URL") in repo.dependents("pkg/types.py")


def test_from_a_package_import_a_module_imports_that_module(repo: Repo) -> None:
    # click's core.py: `from . import types` imports src/click/types.py, not the package's
    # __init__.py; a name the package declares (`from . import VERSION`) is the package's
    repo.add(
        {
            "pkg/__init__.py": "from .types import ParamType as ParamType\nVERSION = 1\n",
            "pkg/types.py": "class ParamType:\n    pass\n",
            "pkg/sub/__init__.py": "",
            "pkg/core.py": "from . import types\n",
            "pkg/version.py": "from . import VERSION\n",
            "pkg/sub/use.py": "from .. import types, sub\nfrom .. import VERSION as V\n",
        }
    )
    assert repo.resolver.imports("r", "pkg/core.py") == ["pkg.types"]
    assert repo.resolver.imports("r", "pkg/version.py") == ["pkg"]
    assert repo.resolver.imports("r", "pkg/sub/use.py") == ["pkg", "pkg.sub", "pkg.types"]


def test_a_python_import_inside_a_function_names_nothing_outside_it(repo: Repo) -> None:
    # click's termui.py: `get_pager_file()` imports `_termui_impl.get_pager_file` in its body
    # and `echo_via_pager` calls termui's own `get_pager_file`; the import applied file-wide,
    # so related(_termui_impl.py) listed echo_via_pager among its dependents
    repo.add(
        {
            "click/__init__.py": "",
            "click/_termui_impl.py": "def get_pager_file(color):\n    pass\n",
            "click/termui.py": (
                "def get_pager_file(color):\n"
                "    from ._termui_impl import get_pager_file\n\n"
                "    return get_pager_file(color=color)\n\n\n"
                "def echo_via_pager(text, color):\n"
                "    with get_pager_file(color=color) as pager:\n"
                "        pager.write(text)\n"
            ),
        }
    )
    assert repo.dependents("click/_termui_impl.py") == [
        ("click/termui.py", "click.termui.get_pager_file")
    ]
