"""Go dependents and imports over real views fed by the real processors (QA on a small Go
module and on gin): a struct field or method named like a package-level type hid every use of
that type in its package, a value's `validator.New()` in another package was taken for the
package's own `New`, and related.imports showed `github.com.gin-gonic.gin.internal.bytesconv`
for the import path `github.com/gin-gonic/gin/internal/bytesconv`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from query_api.answers.render import render
from query_api.symbols.related import related_of
from tests.query_api.test_symbol_dependents import Repo, repo_holding

PARAMS = """package gotiny

// Param is one key/value.
type Param struct {
	Key   string
	Value string
}

// Params is a list of Param.
type Params []Param

// New makes a context.
func New() *Ctx { return &Ctx{} }
"""

CTX = """package gotiny

type Ctx struct {
	Params Params
	params *Params
}

func (c *Ctx) Param(key string) string { return key }

func (c *Ctx) AddParam(key, value string) {
	c.Params = append(c.Params, Param{Key: key, Value: value})
}
"""

HOLDER = """package gotiny

type Holder struct {
	P Params
}

func UseParam() Param { return Param{} }
"""

# the same package: `m.New()` calls a method of a value, never the package's `New`
MAKER = """package gotiny

type Maker struct{}

func (m Maker) New() int { return 1 }

func Build(m Maker) int { return m.New() }
"""

# another package: its `validator.New()` is the validator's, `v.New()` a method of a value
SUB = """package sub

import (
	"github.com/go-playground/validator/v10"
	"gopkg.in/yaml.v3"
)

type V struct{ v *validator.Validate }

func (x *V) init() { x.v = validator.New(); x.v.New(); yaml.Marshal(x) }
"""

# another package importing this one: a qualified call is a dependent
APP = """package app

import (
	"net/url"
	gt "example.com/gotiny"
	_ "embed"
)

func Run() { gt.New(); url.Parse("") }
"""


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    with repo_holding(
        tmp_path,
        {
            "params.go": PARAMS,
            "ctx.go": CTX,
            "holder.go": HOLDER,
            "maker.go": MAKER,
            "sub/sub.go": SUB,
            "cmd/app/app.go": APP,
        },
    ) as r:
        yield r


def test_members_named_like_a_package_type_do_not_hide_its_uses(repo: Repo) -> None:
    assert repo.dependents("params.go") == [
        ("cmd/app/app.go", "app.Run"),  # gt.New(), through the import
        ("ctx.go", "gotiny.Ctx.AddParam"),  # Param{...}, though Ctx declares a method Param
        ("ctx.go", "gotiny.Ctx.Params"),  # a field typed Params, though it is named Params
        ("ctx.go", "gotiny.Ctx.params"),
        ("holder.go", "gotiny.Holder.P"),
        ("holder.go", "gotiny.UseParam"),
    ]  # not sub/sub.go: its validator.New() and x.v.New() are no call of this New, nor
    # maker.go's m.New(), a method's


def test_a_method_named_like_a_package_function_is_its_own(repo: Repo) -> None:
    # maker.go declares a method New; nothing names it bare, and m.New() is no call of
    # params.go's New
    assert ("maker.go", "gotiny.Build") not in repo.dependents("params.go")


def test_a_bare_name_in_another_package_is_not_this_package_s(repo: Repo) -> None:
    # sub.go's own `V` is no dependent of anything here; its `New` calls are other packages'
    assert all(path != "sub/sub.go" for path, _ in repo.dependents("params.go"))
    assert repo.dependents("sub/sub.go") == []


def test_go_imports_are_listed_as_written(repo: Repo) -> None:
    assert repo.resolver.imports("r", "sub/sub.go") == [
        "github.com/go-playground/validator/v10",
        "gopkg.in/yaml.v3",
    ]
    assert repo.resolver.imports("r", "cmd/app/app.go") == [
        "embed",  # a blank import is an import too
        "example.com/gotiny",
        "net/url",
    ]


def test_a_module_with_a_major_version_suffix_has_dependents_in_other_packages(
    repo: Repo,
) -> None:
    # fiber (module github.com/gofiber/fiber/v3): every middleware's `fiber.Ctx` was
    # qualified `github.com.gofiber.fiber.v3.Ctx`, which does not end with the declaration's
    # `fiber.Ctx`, so related(ctx_interface_gen.go) listed no file outside the root package
    repo.add(
        {
            "v3mod/ctx.go": "package fiber\n\ntype Ctx interface{ Next() error }\n",
            "v3mod/middleware/logger/logger.go": (
                'package logger\n\nimport "github.com/gofiber/fiber/v3"\n\n'
                "func New() func(fiber.Ctx) error { return nil }\n"
            ),
        }
    )
    assert repo.dependents("v3mod/ctx.go") == [("v3mod/middleware/logger/logger.go", "logger.New")]


def test_a_function_declared_once_per_build_tag_has_its_callers(repo: Repo) -> None:
    # fiber: isReadOnly is declared in readonly.go (//go:build !s390x ...) and in
    # readonly_strict.go (//go:build s390x ...); app.go calls it, yet related named no
    # dependent of either file: the other file's declaration was taken to be the one
    # app.go's package means, though both are that package's
    repo.add(
        {
            "tags/readonly.go": (
                "//go:build !s390x\n\npackage tags\n\nfunc isReadOnly() bool { return true }\n"
            ),
            "tags/readonly_strict.go": (
                "//go:build s390x\n\npackage tags\n\nfunc isReadOnly() bool { return false }\n"
            ),
            "tags/app.go": "package tags\n\nfunc Use() bool { return isReadOnly() }\n",
        }
    )
    assert repo.dependents("tags/readonly.go") == [("tags/app.go", "tags.Use")]
    assert repo.dependents("tags/readonly_strict.go") == [("tags/app.go", "tags.Use")]


def test_a_package_level_const_or_var_read_through_an_import_has_its_readers(repo: Repo) -> None:
    # viper: internal/features/finder.go declares `const Finder = true` and viper.go reads it
    # as `v.experimentalFinder = features.Finder`; remote/remote.go sets
    # `viper.RemoteConfig = &remoteConfigProvider{}`. Only calls and types were references,
    # so related named no dependent of either file (a value read through an import was none)
    repo.add(
        {
            "internal/features/finder.go": "package features\n\nconst Finder = true\n",
            "remote.go": "package viper\n\nvar RemoteConfig any\n",
            "viper.go": (
                'package viper\n\nimport "github.com/spf13/viper/internal/features"\n\n'
                "type Viper struct{ on bool }\n\n"
                "func New() *Viper {\n\tv := &Viper{}\n\tv.on = features.Finder\n\treturn v\n}\n"
            ),
            "remote/remote.go": (
                'package remote\n\nimport "github.com/spf13/viper"\n\n'
                "type provider struct{}\n\n"
                "func init() {\n\tviper.RemoteConfig = &provider{}\n}\n"
            ),
        }
    )
    assert repo.dependents("internal/features/finder.go") == [("viper.go", "viper.New")]
    assert repo.dependents("remote.go") == [("remote/remote.go", "remote.init")]


def test_a_test_type_named_for_a_type_of_another_package_is_not_its_test(repo: Repo) -> None:
    # logrus: hook_test.go (package logrus_test, the root) declares a helper `type TestHook
    # struct`, and related(hooks/slog/slog.go), whose package declares `type Hook`, listed it
    # among slog.go's tests: a Go test names only its own directory's package bare, and one
    # elsewhere that uses the package imports it (a dependent, so a test, through that)
    repo.add(
        {
            "log/hook_test.go": "package logrus_test\n\ntype TestHook struct{ Fired bool }\n",
            "log/hooks/slog/slog.go": "package slog\n\ntype Hook struct{}\n",
            "log/hooks/slog/hook_test.go": "package slog\n\ntype TestHook struct{ h Hook }\n",
        }
    )
    assert repo.tests("log/hooks/slog/slog.go") == [
        ("log/hooks/slog/hook_test.go", "slog.TestHook"),
    ]


def test_a_package_level_var_read_bare_in_another_file_has_its_reader(repo: Repo) -> None:
    """logrus's text_formatter.go reads FieldKeyMsg, which formatter.go declares (`var` and
    `const` are Fields): a bare name of the package, which only calls and types were, so the
    reader was no dependent. A local of the same name (or a struct field) is none."""
    repo.add(
        {
            "timeouts.go": "package gotiny\n\nvar DefaultTimeout = 5\n\nconst MaxRetries = 3\n",
            "client.go": (
                "package gotiny\n\nfunc timeout() int { return DefaultTimeout * MaxRetries }\n"
            ),
            "local.go": (
                "package gotiny\n\nfunc shadowed(DefaultTimeout int) int {\n"
                "\tMaxRetries := 1\n\treturn DefaultTimeout + MaxRetries\n}\n"
            ),
            "sub/other.go": "package other\n\nfunc f() int { return DefaultTimeout }\n",
        }
    )
    assert repo.dependents("timeouts.go") == [("client.go", "gotiny.timeout")]


def test_related_of_a_file_declaring_methods_says_their_calls_are_not_resolved(
    repo: Repo,
) -> None:
    """QA on spf13/cobra: related(fish_completions.go) said "dependents: none" though
    completions.go calls `cmd.Root().GenFishCompletion(...)`: a selector names no receiver
    type, so a method's callers are not resolved (a member is looked up only through a
    qualified reference). The answer says so, in the JSON and the text, rather than let
    "none" read as a method nobody calls (a struct's fields alike); a file declaring no
    member says nothing."""
    got = related_of(repo.resolver, repo.views, "r", "maker.go", 0)
    assert got.dependents == []  # `Build` calls m.New() in the file itself; nothing else does
    assert got.note is not None and "`x.New()`" in got.note, got.note
    assert got.note in render(got)[1]
    fields = related_of(repo.resolver, repo.views, "r", "params.go", 0).note  # Param's
    assert fields is not None and "`x.Key`" in fields, fields
    assert related_of(repo.resolver, repo.views, "r", "cmd/app/app.go", 0).note is None
