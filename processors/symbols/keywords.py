"""Each language's reserved words: never the name of a declaration a parse recovered well.

A grammar that meets syntax it does not know recovers by guessing, and in a class body its
guess for `if (x) { ... }` or `return app` is a method named `if` or `return`. Reserved words
are still legal member names in some languages (JavaScript's `promise.catch()`, an interface's
`default?: boolean`), so the extractor drops a keyword-named declaration only where the tree
says the parse went wrong around it (extract.py). Contextual words (`type`, `get`, `of`,
`match`) are ordinary names and are not listed.
"""

from __future__ import annotations

import keyword


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_C = (
    "auto break case char const continue default do double else enum extern float for goto if"
    " int long register return short signed sizeof static struct switch typedef union unsigned"
    " void volatile while"
)
_JS = _words(
    "break case catch class const continue debugger default delete do else export extends"
    " finally for function if import in instanceof new return super switch this throw try"
    " typeof var void while with"
)

KEYWORDS: dict[str, frozenset[str]] = {
    "python": frozenset(keyword.kwlist),
    "typescript": _JS,
    "tsx": _JS,
    "javascript": _JS,
    "go": _words(
        "break case chan const continue default defer else fallthrough for func go goto if"
        " import interface map package range return select struct switch type var"
    ),
    "java": _words(
        "abstract assert boolean break byte case catch char class const continue default do"
        " double else enum extends final finally float for goto if implements import"
        " instanceof int interface long native new package private protected public return"
        " short static strictfp super switch synchronized this throw throws transient try void"
        " volatile while"
    ),
    "csharp": _words(
        "abstract as base bool break byte case catch char checked class const continue decimal"
        " default delegate do double else enum event explicit extern false finally fixed float"
        " for foreach goto if implicit in int interface internal is lock long namespace new"
        " null object operator out override params private protected public readonly ref"
        " return sbyte sealed short sizeof stackalloc static string struct switch this throw"
        " true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while"
    ),
    "rust": _words(
        "as break const continue crate else enum extern false fn for if impl in let loop match"
        " mod move mut pub ref return self Self static struct super trait true type unsafe use"
        " where while async await dyn"
    ),
    "c": _words(_C),
    "cpp": _words(
        _C + " class namespace template typename public private protected virtual new delete"
        " this throw try catch"
    ),
    "ruby": _words(
        "alias and begin break case class def defined? do else elsif end ensure false for if in"
        " module next nil not or redo rescue retry return self super then true undef unless"
        " until when while yield"
    ),
    "php": _words(
        "abstract and as break callable case catch class clone const continue declare default"
        " do echo else elseif empty enddeclare endfor endforeach endif endswitch endwhile"
        " extends final finally fn for foreach function global goto if implements include"
        " instanceof insteadof interface isset list match namespace new or print private"
        " protected public require return static switch throw trait try unset use var while"
        " xor yield"
    ),
    "kotlin": _words(
        "as break class continue do else false for fun if in interface is null object package"
        " return super this throw true try typealias typeof val var when while"
    ),
}

# the blank identifier: `var _ io.Writer = (*T)(nil)` declares nothing anyone can name
BLANK: dict[str, str] = {"go": "_", "rust": "_"}
