"""What keyword search reads of a query asking where a name is defined or what uses it: the
query less the words of its form (`defined`, `declared`, `definition`, a kind such as
`class`; `calls`, `used`, `callers`; `file`, `module`), which say what is asked, not what the
code holds (QA on rs/zerolog: `which file defines X`, X declared nowhere, pointed a hit at a
comment's `file`).

QA on jquense/yup: `where is createValidation defined` brought src/tuple.ts into the answer
for its `defined()` method, and named `symbol:Schema.defined` on every hit; `where is the
ObjectSchema class declared` ranked src/Lazy.ts third for the keyword in `class Lazy<`. The
name stays, and the other steps (definition_sites, users_first) read the whole query.
"""

from __future__ import annotations

import re

from processors.path_roles import roles_about
from query_api.retrieval.definition_sites import defined_name
from query_api.retrieval.users_first import KINDS, used_name

_DEFINITION = re.compile(
    r"\b(?:defined|declared|implemented|definition|declaration|defines|declares|implements"
    r"|define|declare|implement|class|function|method|type|struct|interface|trait|enum"
    r"|constant|variable|macro|property|field|attribute|symbol|component|hook|files?|modules?"
    r"|packages?)\b",
    re.IGNORECASE,
)
# an impact question's words (`what breaks if I change X`, `the impact of renaming X`): they
# say what is asked, and `breaks` pointed hits at `break;` lines (QA on console-rs/indicatif)
_IMPACT = (
    r"breaks?|affected|impact|change|modify|rename|remove|delete|edit|changing|modifying"
    r"|renaming|removing|deleting|editing"
)
_USE = re.compile(
    r"\b(?:calls|uses|references|invokes|imports|callers|usages|used|called|referenced"
    r"|invoked|imported|call\s+sites|raises|throws|raised|thrown|handled|implements|extends"
    r"|implement"
    r"|extend|implementations|implementers|implementors|subclasses|call|use|reference|invoke"
    r"|import|raise|throw|files?|modules?|packages?|" + KINDS + r"|" + _IMPACT + r")\b",
    re.IGNORECASE,
)


# a question asking where to make a change (`where do I change how heredocs are parsed`,
# `where should we modify X`, `how do I change Y`): its verb is what the asker will do, and
# matched a declaration named for changes (QA on hashicorp/hcl: `where do I change how
# heredoc templates are parsed` ranked hclwrite/format.go's tokenBracketChange first, above
# hclsyntax/parser_template.go)
_CHANGE_ASKED = re.compile(
    r"^(\s*(?:where|how)\s+(?:do|does|should|can|could|would|must)\s+(?:i|we|you|one)\s+)"
    r"(?:change|modify|edit|update|tweak|adjust|alter)\b",
    re.IGNORECASE,
)


def keyword_text(query: str) -> str:
    """`query` less its form's words outside the name it asks about, when it asks where a
    name is defined or what uses it; less its verb when it asks where to change something
    (_CHANGE_ASKED); else `query`."""
    if (asked := _CHANGE_ASKED.match(query)) is not None:  # nothing after it: as written
        return asked.group(1) + query[asked.end() :] if query[asked.end() :].strip() else query
    name = defined_name(query)
    form = _DEFINITION
    if name is None:
        name, form = used_name(query), _USE
    if name is None:
        return _without_question(query)
    before, found, after = query.partition(name)
    if not found:
        return query
    return form.sub(" ", before) + name + form.sub(" ", after)


# a question opening with its verb (`where is`, `how does`, `which ... are`), its words up to
# its subject; no change request opens so (`When X, do Y` has no verb after its first word)
_QUESTION = re.compile(
    r"^\s*(?:where|how|what|which|who|why)\s+(?:is|are|was|were|do|does|did|can|should)\b"
    r"(?:\s+(?:i|we|you|one|the|a|an|our|my|this))*\s+",
    re.IGNORECASE,
)


# a question asking what a name does or is for (`what does extend do`, `what is _utils.uniq
# for`, `what is the evolve method used for`): its subject alone is what the code holds, and
# its trailing `do` matched every line writing `do`/`does` (QA on python-jsonschema/jsonschema)
_WHAT_FOR = re.compile(
    r"^\s*what\s+(?:does|do|is|are)\s+(?:the\s+)?(?P<subject>\S.*?)"
    r"\s+(?:do|for|used\s+for|mean)\s*\??\s*$",
    re.IGNORECASE,
)


def _without_question(query: str) -> str:
    """`query` less its opening question words (`where is the website built` -> `website
    built`), which say it asks, not what: `where` is rare in code and outweighed the subject.
    QA on sinclairzx81/typebox: `where is the website built` ranked first the files writing
    `where` in comments (src/value/repair/repair.ts) and tasks.ts, building it, nowhere. A
    question about tests, docs or config is searched so too (path_roles.without_question_words)."""
    if roles_about(query):  # read whole there, for what it is about
        return query
    if (asked := _WHAT_FOR.match(query)) is not None:
        return asked.group("subject")
    rest = _QUESTION.sub("", query, count=1)
    return rest if rest.strip() and rest != query else query
