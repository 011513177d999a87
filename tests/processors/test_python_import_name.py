"""A Python declaration's name as code imports it (languages.python.import_name), where the
source folder holds a namespace package (PEP 420): poetry's src/poetry has no `__init__.py`
(poetry-core shares the `poetry` namespace), yet code writes `poetry.installation.installer`.
Outline, related, search and the bundle showed `installation.installer.Installer`, a name no
import can use."""

from __future__ import annotations

from processors.symbols.languages.python import import_name


def test_a_namespace_package_below_src_stays_in_the_name() -> None:
    path = "src/poetry/installation/installer.py"
    fq = "src.poetry.installation.installer.Installer"
    shown = import_name(fq, path, {"src/poetry/installation"})
    assert shown == "poetry.installation.installer.Installer"


def test_a_regular_package_below_src_loses_only_src() -> None:
    path = "src/flask/testing.py"
    shown = import_name("src.flask.testing.FlaskClient", path, {"src/flask"})
    assert shown == "flask.testing.FlaskClient"


def test_a_module_directly_in_src_loses_src() -> None:
    assert import_name("src.six.moves", "src/six.py", set()) == "six.moves"


def test_a_folder_outside_any_package_is_left_out() -> None:
    path = "tests/test_app.py"
    assert import_name("tests.test_app.test_open", path, set()) == "test_app.test_open"
