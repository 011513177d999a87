"""A declaration's signature as outlines show it: less the Rust attributes that say nothing
of what the item is or when it exists (`#[inline]`, `#[must_use]`, `#[cold]`,
`#[track_caller]`, lint levels, `#[cfg_attr(docsrs, ...)]` for docs.rs).

The symbols keep the attributes written before an item in its signature, for those that do say
something (`#[cfg(feature = "std")]`, `#[derive(Clone)]`, `#[test]`, `#[deprecated]`). QA on
serde-rs/json: src/map.rs's outline repeated `#[inline] ` 53 times and `#[cfg_attr(docsrs,
doc(cfg(feature = "preserve_order")))] ` 9 times, a tenth of its tokens, beside the
`#[cfg(feature = "preserve_order")]` that already said the same. The stored signature is
unchanged: other readers look for `#[test]` or `#[macro_export]` in it.
"""

from __future__ import annotations

import re

# arguments in parentheses, nested up to four deep (`(docsrs, doc(cfg(any(std, alloc))))`)
_DEPTH1 = r"(?:[^()]|\([^()]*\))*"
_DEPTH2 = rf"(?:[^()]|\({_DEPTH1}\))*"
_DEPTH3 = rf"(?:[^()]|\({_DEPTH2}\))*"
_ARGUMENTS = rf"\({_DEPTH3}\)"
# an attribute of these, with its arguments or value, and the blanks after it
_NOISE = re.compile(
    r"#\[(?:(?:inline|cold|must_use|track_caller|allow|warn|expect|deny|forbid|rustfmt::skip"
    rf"|clippy::\w+)(?:\s*=\s*\"[^\"]*\"|{_ARGUMENTS})?|cfg_attr\(\s*docsrs\s*,{_DEPTH3}\))\]\s*"
)


def shown_signature(signature: str) -> str:
    """`signature` less the attributes that say nothing of the item (the module doc)."""
    if "#[" not in signature:
        return signature
    return _NOISE.sub("", signature)
