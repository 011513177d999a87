"""outline and related on a Java/Kotlin package name or a Javadoc member reference.

A QA pass on square/retrofit: related of `retrofit2.http` (a package, as related's imports
and a file's `package` line write it) and of `Retrofit#create` (a member as Javadoc's
`{@link Retrofit#create(Class)}` writes it) answered "not indexed" with no note, as for a
name nothing declares; `Retrofit.java#loadServiceMethod` too, while `#L214` was named."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.mcp_helpers import stdio_session, wait_indexed
from tests.integration.test_directory_paths import absent_note, assert_unnoted

pytestmark = pytest.mark.anyio

STORE = """package org.shop;

public class Store {
    public Store create(String name) { return this; }
}
"""


def java_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "workspace" / "shop"
    main = repo / "lib" / "src" / "main" / "java" / "org" / "shop"
    test = repo / "lib" / "src" / "test" / "java" / "org" / "shop"
    (main / "http").mkdir(parents=True)
    (test / "http").mkdir(parents=True)
    (main / "Store.java").write_text(STORE)
    for name in ("GET", "POST"):
        (main / "http" / f"{name}.java").write_text(
            f"package org.shop.http;\n\npublic @interface {name} {{ String value(); }}\n"
        )
    (test / "http" / "GETTest.java").write_text(
        "package org.shop.http;\n\nclass GETTest { void t() { } }\n"
    )
    return repo


async def test_a_jvm_package_name_names_its_folders(tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "data", str(java_repo(tmp_path))) as session:
        await wait_indexed(session, "shop")
        note, text = await absent_note(session, "shop", "repocontext_related", "org.shop.http")
        assert note == (
            "org.shop.http is a Java/Kotlin package, no file; its files are in 2 folders, "
            "lib/src/main/java/org/shop/http, lib/src/test/java/org/shop/http (indexed files "
            "there include lib/src/main/java/org/shop/http/GET.java, "
            "lib/src/main/java/org/shop/http/POST.java): name a file"
        ), note
        assert "not indexed" not in text, text
        await assert_unnoted(session, "shop", "org.nowhere")


async def test_a_javadoc_member_reference_names_its_file(tmp_path: Path) -> None:
    async with stdio_session(tmp_path / "data", str(java_repo(tmp_path))) as session:
        await wait_indexed(session, "shop")
        for tool, path in (
            ("repocontext_related", "Store#create"),
            ("repocontext_outline", "org.shop.Store#create(String)"),
        ):
            note, _ = await absent_note(session, "shop", tool, path)
            assert "declared in lib/src/main/java/org/shop/Store.java" in note, note
        store = "lib/src/main/java/org/shop/Store.java"
        note, _ = await absent_note(session, "shop", "repocontext_outline", f"{store}#create")
        assert note == (
            f"{store}#create names a declaration of the indexed file {store}: name the file alone"
        ), note


async def test_changed_of_a_jvm_package_name_names_its_folders(tmp_path: Path) -> None:
    """changed of `retrofit2.http` answered "path 'retrofit2.http' does not exist, and no
    indexed file is under it", as for a typo; it names the package's folders to scope by."""
    async with stdio_session(tmp_path / "data", str(java_repo(tmp_path))) as session:
        await wait_indexed(session, "shop")
        answer = await session.call_tool(
            "repocontext_changed", {"repoId": "shop", "path": "org.shop.http"}
        )
        text = " ".join(getattr(block, "text", "") for block in answer.content)
        assert answer.isError, text
        assert (
            "path 'org.shop.http' is a Java/Kotlin package, no folder; its files are in 2 "
            "folders, lib/src/main/java/org/shop/http, lib/src/test/java/org/shop/http: name "
            "one of them"
        ) in text, text
