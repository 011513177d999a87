"""A definition query points a file whose declaration the symbols do not see (a function
written inside a macro's invocation: hyper's `ffi_fn! { fn hyper_clientconn_handshake(...) }`)
at the line declaring it in words (`fn name(`), not at a comment naming it. QA on
hyperium/hyper: `where is hyper_clientconn_handshake defined` pointed src/ffi/client.rs at
line 44, `///   3. Call `hyper_clientconn_handshake` with the ...` of the module's doc; the
function is at line 96, inside `ffi_fn! { ... }`."""

from __future__ import annotations

from pathlib import Path

from query_api.retrieval.definition_sites import at_definitions
from tests.query_api.located import located_hits

CLIENT = "\n".join(
    [
        "/// How to make a client:",  # 1
        "///   1. Call `hyper_clientconn_handshake` with the IO and the options.",  # 2
        "pub struct hyper_clientconn;",  # 3
        "",  # 4
        "ffi_fn! {",  # 5
        "    /// Starts an HTTP client connection handshake.",  # 6
        "    fn hyper_clientconn_handshake(io: *mut hyper_io) -> *mut hyper_task {",  # 7
        "        handshake(io)",  # 8
        "    } ?= std::ptr::null_mut()",  # 9
        "}",  # 10
        "",
    ]
)
HEADER = "struct hyper_task *hyper_clientconn_handshake(struct hyper_io *io);\n"
FILES = {"src/ffi/client.rs": CLIENT, "capi/include/hyper.h": HEADER}


def test_a_declaration_inside_a_macro_is_found_by_its_words(tmp_path: Path) -> None:
    for files in (FILES, {"src/ffi/client.rs": CLIENT}):  # with another file declaring it, or none
        hits = located_hits(
            tmp_path, files, "where is hyper_clientconn_handshake defined", at_definitions
        )
        client = next(hit for hit in hits if hit.entry.path == "src/ffi/client.rs")
        assert client.startLine == 7, (list(files), client)
        assert client.snippet is not None
        assert client.snippet.startswith("7: fn hyper_clientconn_handshake("), client.snippet
