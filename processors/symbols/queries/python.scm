; Python: classes, functions (methods when inside a class), class- and module-level fields, imports,
; calls and type annotations. Capture names are documented in processors/symbols/extract.py.

(class_definition name: (identifier) @name) @def.Type
(function_definition name: (identifier) @name parameters: (parameters) @params) @def.Function
(class_definition
  body: (block (expression_statement (assignment left: (identifier) @name) @def.Field)))
; module-level names (`current_app = LocalProxy(...)`, constants): what other modules import
(module (expression_statement (assignment left: (identifier) @name) @def.Field))
; and those a module binds under a condition, a `try` or a `with` (`if TYPE_CHECKING:`,
; `except ImportError: brotli = None`): languages/python.at_module_level; only the blocks of
; those statements, not every function body's
(if_statement consequence: (block (expression_statement (assignment left: (identifier) @name) @def.Field @top)))
(elif_clause consequence: (block (expression_statement (assignment left: (identifier) @name) @def.Field @top)))
(else_clause body: (block (expression_statement (assignment left: (identifier) @name) @def.Field @top)))
(try_statement body: (block (expression_statement (assignment left: (identifier) @name) @def.Field @top)))
(except_clause (block (expression_statement (assignment left: (identifier) @name) @def.Field @top)))
(finally_clause (block (expression_statement (assignment left: (identifier) @name) @def.Field @top)))
(with_statement body: (block (expression_statement (assignment left: (identifier) @name) @def.Field @top)))
; each name a tuple binds there (`release, version = get_version("Click")`)
(module (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field))
(if_statement consequence: (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field @top)))
(elif_clause consequence: (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field @top)))
(else_clause body: (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field @top)))
(try_statement body: (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field @top)))
(except_clause (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field @top)))
(finally_clause (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field @top)))
(with_statement body: (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field @top)))
(class_definition
  body: (block (expression_statement (assignment left: (pattern_list (identifier) @name)) @def.Field)))
; the later names of a chained assignment (`USER = PASSWORD = None`: the first is above), two
; links deep; the statement is their node, as long as the first's, so no name owns the next
(module (expression_statement (assignment right: (assignment left: (identifier) @name))) @def.Field)
(module (expression_statement (assignment right: (assignment right: (assignment left: (identifier) @name)))) @def.Field)
(class_definition
  body: (block (expression_statement (assignment right: (assignment left: (identifier) @name))) @def.Field))
(class_definition
  body: (block (expression_statement (assignment right: (assignment right: (assignment left: (identifier) @name)))) @def.Field))

(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import alias: (identifier) @import.alias))
(import_from_statement module_name: (_) @import.module name: (dotted_name) @import.name)
(import_from_statement
  module_name: (_) @import.module
  name: (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias))
; `from x import *` (recorded as `x.*`): the only way a name another module declares is used
; unqualified
(import_from_statement module_name: (_) @import.module (wildcard_import) @import.star)

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments
(call . function: (identifier) @ref.call)
(call . function: (attribute attribute: (identifier) @ref.call))
(class_definition superclasses: (argument_list (identifier) @ref.type))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @ref.type)))
; a generic base (`class URL(click.ParamType[ParseResult])`)
(class_definition superclasses: (argument_list (subscript value: (identifier) @ref.type)))
(class_definition superclasses: (argument_list (subscript value: (attribute attribute: (identifier) @ref.type))))
(type (identifier) @ref.type)
(type (generic_type (identifier) @ref.type))
; a union of bare names (`conn: Request | WebSocket`, `Router | Starlette | None`) parses as
; an operator, the first operands nested deepest (a union with a generic in it is types already)
(type (binary_operator [left: (identifier) right: (identifier)] @ref.type))
(type (binary_operator left: (binary_operator [left: (identifier) right: (identifier)] @ref.type)))
(type (binary_operator left: (binary_operator left: (binary_operator [left: (identifier) right: (identifier)] @ref.type))))
(type (binary_operator left: (binary_operator left: (binary_operator left: (binary_operator [left: (identifier) right: (identifier)] @ref.type)))))
; Callable's parameters (`Callable[[Request], Response]`)
(type (list (identifier) @ref.type))
; a type written as a string (a forward reference; a class imported under TYPE_CHECKING is
; often named nowhere else), when the string is one name
((type (string (string_content) @ref.type)) (#match? @ref.type "^[A-Za-z_][A-Za-z0-9_]*$"))
(decorator (identifier) @ref.call)
; a name read through a module as a value, not called (`except click.Abort:`, `type=click.INT`,
; `isinstance(x, click.Option)`, `@pytest.fixture`): kept only when the chain before it starts
; with an import (languages/python.imported_member), so `self.x` is no reference
; with no `self.x = ...` or `a.b` inside a longer chain among them: where a value stands
(argument_list (attribute attribute: (identifier) @ref.value))
(keyword_argument value: (attribute attribute: (identifier) @ref.value))
(except_clause (attribute attribute: (identifier) @ref.value))
(except_clause (tuple (attribute attribute: (identifier) @ref.value)))
(raise_statement (attribute attribute: (identifier) @ref.value))
(decorator (attribute attribute: (identifier) @ref.value))
(type (attribute attribute: (identifier) @ref.value))
(assignment right: (attribute attribute: (identifier) @ref.value))
(return_statement (attribute attribute: (identifier) @ref.value))
(tuple (attribute attribute: (identifier) @ref.value))
(list (attribute attribute: (identifier) @ref.value))
(pair value: (attribute attribute: (identifier) @ref.value))
(comparison_operator (attribute attribute: (identifier) @ref.value))
(binary_operator (attribute attribute: (identifier) @ref.value))
(subscript value: (attribute attribute: (identifier) @ref.value))
(except_clause (as_pattern (attribute attribute: (identifier) @ref.value)))
(except_clause (as_pattern (tuple (attribute attribute: (identifier) @ref.value))))
; a condition's, a loop's iterable or a lambda's value (`if compat.HAS_X:`, `X and not
; Y`, a ternary, `assert`, `for x in config.items`)
(if_statement condition: (attribute attribute: (identifier) @ref.value))
(elif_clause condition: (attribute attribute: (identifier) @ref.value))
(while_statement condition: (attribute attribute: (identifier) @ref.value))
(assert_statement (attribute attribute: (identifier) @ref.value))
(not_operator argument: (attribute attribute: (identifier) @ref.value))
(boolean_operator (attribute attribute: (identifier) @ref.value))
(conditional_expression (attribute attribute: (identifier) @ref.value))
(for_statement right: (attribute attribute: (identifier) @ref.value))
(for_in_clause right: (attribute attribute: (identifier) @ref.value))
(lambda body: (attribute attribute: (identifier) @ref.value))
; a name an import binds, read bare as a value (`isinstance(x, Request)`, `except
; WebSocketDisconnect:`, `Middleware(BaseHTTPMiddleware)`, `{HTTPException: handler}`,
; `T = Callable[[Request], Response]`): kept only when an import binds it
; (languages/python.imported_member), so a local or a parameter is no reference
(argument_list (identifier) @ref.value)
(keyword_argument value: (identifier) @ref.value)
(except_clause (identifier) @ref.value)
(except_clause (tuple (identifier) @ref.value))
(except_clause (as_pattern (identifier) @ref.value))
(except_clause (as_pattern (tuple (identifier) @ref.value)))
(raise_statement (identifier) @ref.value)
(assignment right: (identifier) @ref.value)
(return_statement (identifier) @ref.value)
(tuple (identifier) @ref.value)
(list (identifier) @ref.value)
(set (identifier) @ref.value)
(pair key: (identifier) @ref.value)
(pair value: (identifier) @ref.value)
(comparison_operator (identifier) @ref.value)
(subscript subscript: (identifier) @ref.value)
(if_statement condition: (identifier) @ref.value)
(elif_clause condition: (identifier) @ref.value)
(while_statement condition: (identifier) @ref.value)
(assert_statement (identifier) @ref.value)
(not_operator argument: (identifier) @ref.value)
(boolean_operator (identifier) @ref.value)
(conditional_expression (identifier) @ref.value)
(for_statement right: (identifier) @ref.value)
(for_in_clause right: (identifier) @ref.value)
(lambda body: (identifier) @ref.value)
; the value a method is called on, when an import binds it (`wheel_file_re.match(name)` after
; `from .patterns import wheel_file_re`, `Request.from_scope(scope)`): the call names the
; method, which a value's type declares nowhere the index sees
(call function: (attribute object: (identifier) @ref.value))
; a type alias's value (`CookiesType: TypeAlias = RequestsCookieJar | Mapping[str, str]`,
; `tuple[str, CaseInsensitiveDict[str] | None]`)
(binary_operator left: (identifier) @ref.value)
(binary_operator right: (identifier) @ref.value)
(subscript value: (identifier) @ref.value)

; decorators written before a declaration (kept in its signature)
(decorated_definition definition: (_) @decorated)
