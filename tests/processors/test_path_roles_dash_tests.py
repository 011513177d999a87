"""A JS/TS file named `*-test.ts` is a test (Jest's `testMatch: ["**/*-test.[jt]s?(x)"]` and
Playwright's `**/*-test.ts`, as remix-run/react-router names its 280 suites), and a folder
named `playground` holds example apps, not the library. QA on remix-run/react-router: its
integration/*-test.ts and packages/react-router-dev/vite/*-test.ts were source, so change
requests ranked them first ('Ignore writes after Express responses close' put four
integration suites above packages/react-router-express/server.ts; 'Validate RSC redirect
protocols' integration/rsc/rsc-test.ts first), they were embedded, and `tests for the vite
plugin` found none; 'fix: improve matching perf' ranked playground/performance/scripts/
bench.mjs first."""

from __future__ import annotations

import pytest

from processors.path_roles import Role, role_of, roles_asked, subject_name


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("integration/link-test.ts", Role.TEST),
        ("integration/rsc/rsc-test.ts", Role.TEST),
        ("packages/react-router-dev/vite/combine-urls-test.ts", Role.TEST),
        ("src/button-test.tsx", Role.TEST),
        ("lib/loader-test.mjs", Role.TEST),
        ("playground/framework/app/root.tsx", Role.EXAMPLE),
        ("playground/performance/scripts/bench.mjs", Role.EXAMPLE),
        # as before
        ("packages/react-router-dev/vite/combine-urls.ts", Role.SOURCE),
        ("src/latest.ts", Role.SOURCE),
        ("src/ab_test.ts", Role.SOURCE),
        ("scripts/test.sh", Role.SOURCE),
        ("cmd/smoke-test.go", Role.SOURCE),
        ("packages-private/sfc-playground/vite.config.ts", Role.CONFIG),
    ],
)
def test_dash_test_files_and_playgrounds(path: str, role: Role) -> None:
    assert role_of(path) == role


def test_a_dash_test_names_its_subject() -> None:
    assert subject_name("packages/react-router-dev/vite/combine-urls-test.ts") == "combine-urls.ts"
    assert subject_name("__tests__/dom/use-blocker-test.tsx") == "use-blocker.tsx"


def test_a_playground_named_asks_for_it() -> None:
    assert Role.EXAMPLE in roles_asked({"playground", "vite"})
