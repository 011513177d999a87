"""A search for the importers of a Python module points each file hit at its import of it,
which names the module in dotted words, not in a string (import_sites.py). QA on pallets/
werkzeug: `who imports sansio/utils.py` pointed sansio/request.py at lines 153-178, holding
a function's `import warnings`, not at line 31's `from .utils import get_host`, and wsgi.py
at `from __future__ import annotations` above `from .sansio import utils as _sansio_utils`.
Matched by its last part alone, request.py's `from ..utils import cached_property` (line 26,
werkzeug/utils.py) was taken for it: a relative import is resolved from the importer."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.import_sites import import_site
from query_api.retrieval.use_sites import at_use_sites
from tests.query_api.located import located_hits

REQUEST = "\n".join(
    [
        "from __future__ import annotations",  # 1
        "",
        "import typing as t",  # 3
        "from datetime import datetime",  # 4
        "from ..utils import cached_property",  # 5: the package's utils, not sansio's
        "from .utils import get_current_url",  # 6
        "from .utils import get_host",  # 7
        "",
        "",
        "def host(environ: dict[str, str]) -> str:",  # 10
        "    import warnings",  # 11
        "",
        "    warnings.warn('utils are fine')",  # 13
        "    return get_host(environ)",  # 14
        "",
    ]
)

WSGI = "\n".join(
    [
        "from __future__ import annotations",  # 1
        "",
        "import io",  # 3
        "",
        "from .sansio import utils as _sansio_utils",  # 5
        "",
        "",
        "def host(environ: dict[str, str]) -> str:",  # 8
        "    return _sansio_utils.get_host(environ)",  # 9
        "",
    ]
)


def test_a_python_import_of_the_module_is_its_site() -> None:
    assert import_site(REQUEST.split("\n"), "utils") == (5, 5)  # by its last part
    importer = "src/pkg/sansio/request.py"
    assert import_site(REQUEST.split("\n"), "utils", importer, "sansio/utils") == (6, 6)
    assert import_site(REQUEST.split("\n"), "utils", importer, "pkg/utils") == (5, 5)
    absolute = ["import pkg.utils", "from pkg.sansio.utils import get_host"]
    assert import_site(absolute, "utils", importer, "sansio/utils") == (2, 2)
    assert import_site(WSGI.split("\n"), "utils") == (5, 5)
    assert import_site(["import werkzeug.sansio.utils as u"], "utils") == (1, 1)
    assert import_site(["from ..sansio.utils import (", "    get_host,", ")"], "utils") == (1, 1)
    assert import_site(["import io", "from .utilsx import a"], "utils") is None
    assert import_site(["from . import utilsx, helpers"], "utils") is None


def test_an_importer_points_at_its_python_import(tmp_path: Path) -> None:
    query = "who imports sansio/utils.py"
    files = {"src/pkg/sansio/request.py": REQUEST, "src/pkg/wsgi.py": WSGI}
    hits = located_hits(tmp_path, files, query, at_use_sites)
    at = {hit.entry.path: (hit.startLine, hit.snippet) for hit in hits}
    assert at["src/pkg/sansio/request.py"] == (6, "6: from .utils import get_current_url"), hits
    assert at["src/pkg/wsgi.py"] == (5, "5: from .sansio import utils as _sansio_utils"), hits
