"""A traceback's frame in an installed copy of the package (`.../site-packages/werkzeug/
serving.py`) names the repository's file of that module (`src/werkzeug/serving.py`, a src
layout), as a checkout's absolute path does. QA on pallets/werkzeug: `File "/home/me/venv/
lib/python3.12/site-packages/werkzeug/serving.py", line 323, in execute` pointed the hit at
lines 430-436, for the `Python 3.12` of a comment (the words of the path), not at line 323;
with `src/werkzeug/serving.py` written instead it pointed at 323."""

from __future__ import annotations

from query_api.retrieval.named_lines import Place, place_of, written_places

FRAME = (
    'File "/home/me/venv/lib/python3.12/site-packages/werkzeug/serving.py", line 323, in execute'
)


def test_an_installed_module_names_the_repository_file() -> None:
    [place] = written_places(FRAME)
    assert place_of([place], "src/werkzeug/serving.py") == place
    assert place_of([place], "werkzeug/serving.py") == place
    windows = Place("c:/python312/lib/site-packages/werkzeug/serving.py", 3, 3)
    assert place_of([windows], "src/werkzeug/serving.py") == windows
    debian = Place("/usr/lib/python3/dist-packages/werkzeug/serving.py", 3, 3)
    assert place_of([debian], "src/werkzeug/serving.py") == debian


def test_an_installed_module_names_no_other_package_file() -> None:
    [place] = written_places(FRAME)
    assert place_of([place], "src/flask/serving.py") is None
    assert place_of([place], "src/werkzeug/debug/serving.py") is None
    assert place_of([place], "src/werkzeug/xserving.py") is None
