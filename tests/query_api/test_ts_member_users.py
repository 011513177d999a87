"""The users of a member of a TS/JS file's default export (`what calls formatError`, a static
method of `export default class ValidationError`) are the files naming the member, not every
file importing the class: the file's default export stands for the file asked about only
where the declaration looked up may be that export. QA on jquense/yup: `what calls
formatError` marked object.ts, schema.ts and standardSchema.ts `uses:formatError`, each for
`import ValidationError from './ValidationError'` and no call of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.query_api.test_symbol_dependents import Repo, repo_holding

FILES = {
    "src/ValidationError.ts": (
        "export default class ValidationError extends Error {\n"
        "  static formatError(message: string, params: object) {\n"
        "    return message;\n"
        "  }\n"
        "}\n"
    ),
    "src/locale.ts": (
        "import ValidationError from './ValidationError';\n\n"
        "export function notType(params: object) {\n"
        "  return ValidationError.formatError('bad', params);\n"
        "}\n"
    ),
    # imports the class for itself, never calls the member
    "src/object.ts": (
        "import ValidationError from './ValidationError';\n\n"
        "export function validate(errors: ValidationError[]) {\n"
        "  return new ValidationError(errors.join(','));\n"
        "}\n"
    ),
    "src/createValidation.ts": (
        "export default function createValidation(name: string) {\n  return name;\n}\n"
    ),
    "src/schema.ts": (
        "import createValidation from './createValidation';\n\n"
        "export function build() {\n  return createValidation('x');\n}\n"
    ),
}


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(tmp_path, FILES) as r:
        yield r


def users_of(repo: Repo, name: str, path: str) -> list[str]:
    declared = [s for s in repo.views.symbols_named("r", [name]) if s.path == path]
    found = repo.resolver.dependents_found("r", declared, exclude={path}, whole_files=False)
    return sorted(found.files())


def test_a_member_of_the_default_export_is_used_only_where_it_is_named(repo: Repo) -> None:
    assert users_of(repo, "formatError", "src/ValidationError.ts") == ["src/locale.ts"]


def test_a_default_exported_function_is_used_through_its_default_import(repo: Repo) -> None:
    assert users_of(repo, "createValidation", "src/createValidation.ts") == ["src/schema.ts"]


def test_the_dependents_of_the_file_still_count_every_importer(repo: Repo) -> None:
    assert {path for path, _ in repo.dependents("src/ValidationError.ts")} == {
        "src/locale.ts",
        "src/object.ts",
    }


COMMONJS = {
    "lib/application.js": (
        "module.exports = class Application {\n"
        "  handleRequest(ctx) {\n"
        "    return respond(ctx)\n"
        "  }\n"
        "}\n\n"
        "function respond(ctx) {\n"
        "  return ctx.body\n"
        "}\n"
    ),
    # requires the application for itself: no use of `respond` or `handleRequest`
    "__tests__/respond.test.js": (
        "const Koa = require('../lib/application')\n\n"
        "it('should respond', () => {\n"
        "  const app = new Koa()\n"
        "  app.context.respond = false\n"
        "})\n"
    ),
}


def test_a_file_requiring_a_module_uses_none_of_its_declarations_by_that_alone(
    tmp_path: Path,
) -> None:
    """koa: `what calls respond` and `who calls handleRequest` marked every test requiring
    lib/application.js a user; that file depends on the module, which related still says."""
    with repo_holding(tmp_path, COMMONJS) as r:
        assert users_of(r, "respond", "lib/application.js") == []
        assert users_of(r, "handleRequest", "lib/application.js") == []
        assert {path for path, _ in r.dependents("lib/application.js")} == {
            "__tests__/respond.test.js"
        }
