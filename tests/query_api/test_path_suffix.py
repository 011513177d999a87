"""The indexed file a misspelt path is closest to (query_api/symbols/path_suffix.py)."""

from __future__ import annotations

from query_api.symbols.path_suffix import closest_file

FILES = [
    "uvicorn/middleware/proxy_headers.py",
    "uvicorn/middleware/wsgi.py",
    "uvicorn/middleware/sub/proxy_header.txt",
    "uvicorn/config.py",
]


def named(name: str) -> list[str]:
    return [f for f in FILES if f.rpartition("/")[2] == name]


def test_a_name_a_letter_away_in_the_same_folder_is_the_file() -> None:
    path = "uvicorn/middleware/proxy_header.py"
    assert closest_file(path, FILES, named("proxy_header.py")) == FILES[0]


def test_the_same_name_in_a_folder_a_letter_away_is_the_file() -> None:
    path = "uvicorn/middlware/proxy_headers.py"
    assert closest_file(path, FILES, named("proxy_headers.py")) == FILES[0]


def test_nothing_close_is_no_file() -> None:
    assert closest_file("uvicorn/middleware/nope.py", FILES, []) is None
    assert closest_file("other/proxy_headers.py", FILES, named("proxy_headers.py")) is None
