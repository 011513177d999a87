"""A Kotlin or C# class named before a dot is a reference, as a Java one is (java.scm).

okio's Segment.kt, FileHandle.kt, Buffer.kt ... (package okio, no import) call
`SegmentPool.take()`; commandlineparser's Parser.cs and tests call `Tokenizer.Tokenize(...)`.
Only the member's name was a reference, so `related` missed those files. The name before the
dot is one unless written in lower case (`list.size` reads a variable), past a quoting backtick
or `@` (Kotlin's `` `in`.readInt() ``, C#'s `@in.Read()`) and leading underscores (a field's
`_repo.Get(index)`, which the Sample.cs golden would otherwise have gained as a reference).
"""

from __future__ import annotations

from processors.symbols.processor import symbols_of
from tests.processors.test_symbols import upsert

KOTLIN = """package okio

class Segment {
  private val _pool = Pool()
  fun pop(list: List<Int>, `in`: Source): Int {
    SegmentPool.recycle(this)
    list.size
    _pool.next
    `in`.read()
    return Limits.MAX + Outer.Inner.f()
  }
}
"""

CSHARP = """namespace CommandLine
{
    class Parser
    {
        private readonly Repo _repo;
        int Parse(List<string> list, Reader @in)
        {
            list.Clear();
            @in.Read();
            _repo.Get(1);
            return Tokenizer.Tokenize(list).Count + Limits.Max + Outer.Inner.F();
        }
    }
}
"""


def _names(path: str, body: str) -> set[str]:
    records = symbols_of(upsert(path, body))
    assert records is not None
    return {name for _symbol, name, _qualified in records[1].references}


def test_a_kotlin_name_before_a_dot_is_a_reference_unless_lower_case() -> None:
    names = _names("okio/Segment.kt", KOTLIN)
    assert {"SegmentPool", "Limits", "Outer", "recycle", "f"} <= names
    assert not names & {"list", "`in`", "in", "size", "_pool", "next"}


def test_a_csharp_name_before_a_dot_is_a_reference_unless_lower_case() -> None:
    names = _names("src/Parser.cs", CSHARP)
    assert {"Tokenizer", "Limits", "Outer", "Tokenize", "F"} <= names
    assert not names & {"list", "@in", "in", "_repo"}
