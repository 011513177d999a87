; TypeScript, and TSX (the same query against the TSX grammar): classes, interfaces, enums, type aliases, functions,
; methods, fields, namespaces, imports, calls, `new` and type references.

(class_declaration name: (type_identifier) @name) @def.Type
(abstract_class_declaration name: (type_identifier) @name) @def.Type
(interface_declaration name: (type_identifier) @name) @def.Interface
(enum_declaration name: (identifier) @name) @def.Enum
(enum_body (property_identifier) @name @def.Field)
(enum_body (enum_assignment name: (property_identifier) @name) @def.Field)
(type_alias_declaration name: (type_identifier) @name) @def.Other
(internal_module name: (_) @name) @def.Namespace
(function_declaration name: (identifier) @name parameters: (formal_parameters) @params) @def.Function
(generator_function_declaration name: (identifier) @name parameters: (formal_parameters) @params) @def.Function
(function_signature name: (identifier) @name parameters: (formal_parameters) @params) @def.Function
(method_definition name: (_) @name parameters: (formal_parameters) @params) @def.Method
(method_signature name: (_) @name parameters: (formal_parameters) @params) @def.Method @decl
(abstract_method_signature name: (_) @name parameters: (formal_parameters) @params) @def.Method
(public_field_definition name: (_) @name) @def.Field
(property_signature name: (_) @name) @def.Property @decl
; a class expression bound to a top-level name (`var QueryClient = class { ... }`, what bundlers
; emit): a Type its methods nest in; before the Field patterns, so it wins the same node
(program (variable_declaration (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @def.Type)
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @def.Type)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @def.Type))
; a named class expression assigned to a member (`module.exports = class Application extends
; Emitter {...}`, `exports.Other = class Other {}`): koa's application; a Type its methods nest in
(program (expression_statement (assignment_expression left: (member_expression) right: (class name: (type_identifier) @name body: (class_body) @body))) @def.Type)
; a function bound to a top-level name (`export const f = <T>(x: T) => x`, `= function () {}`,
; `var f = function* () {}`): a Function, before the Field patterns, so it wins the same node
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function))
(program (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function)
(program (export_statement (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function))
; the same function cast to its type or wrapped (zustand's `export const create = (<T>(s: T) =>
; ...) as Create`, an implementation typed by an overloaded call signature; `as unknown as T`,
; `satisfies T`, `(function () {})`; not `<T>(...)`, which the TSX grammar reads as JSX and
; the query is shared with it): a Function too, not a Field
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]]) (satisfies_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]))])) @def.Function)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]]) (satisfies_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]))])) @def.Function))
(program (variable_declaration (variable_declarator name: (identifier) @name value: [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]]) (satisfies_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]))])) @def.Function)
(program (export_statement (variable_declaration (variable_declarator name: (identifier) @name value: [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . [(parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) (as_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]]) (satisfies_expression . (parenthesized_expression [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]))])) @def.Function))
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field))
(program (variable_declaration (variable_declarator name: (identifier) @name)) @def.Field)
(program (export_statement (variable_declaration (variable_declarator name: (identifier) @name)) @def.Field))
; `declare const x: T`, `export declare let y: U` (a declaration file's values)
(program (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field))
(program (export_statement (ambient_declaration (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field)))
; what a namespace exports (`namespace NS { export const inner = 1 }`: NS.inner)
(internal_module body: (statement_block (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])) @def.Function)))
(internal_module body: (statement_block (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field)))

; a function that is a property of an object literal bound at file level (`const api = { get:
; (url) => fetch(url) }`, `export default { install: (app) => ... }`, `module.exports = {
; stringify: function () {} }`): a Method, named under the binding by nesting (api.get; the
; default export's and module.exports' members at file level, as `module.exports.f = ...`'s);
; its shorthand siblings (`post(url) {}`) are method_definitions. One object down, the key
; names a scope (api.admin.reset, api.admin.audit); deeper, or in an object passed as an
; argument, nothing: a large configuration object cannot fill the outline
(program (_ (variable_declarator name: (identifier) value: [(object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method) (as_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))])))
(program (export_statement (_ (variable_declarator name: (identifier) value: [(object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method) (as_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))]))))
(program (export_statement value: [(object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method) (as_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))]))
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) right: [(object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method) (as_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))])) (#eq? @_module "module") (#eq? @_exports "exports"))
(program (_ (variable_declarator name: (identifier) value: [(object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope) (as_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope))])))
(program (export_statement (_ (variable_declarator name: (identifier) value: [(object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope) (as_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope))]))))
(program (export_statement value: [(object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope) (as_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope))]))
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) right: [(object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope) (as_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope)) (satisfies_expression . (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope))])) (#eq? @_module "module") (#eq? @_exports "exports"))

; imports and re-exports: es_modules.scm
; TypeScript's CommonJS import (`import fs = require("fs")`, for a module that assigns `export =`):
; the module, its name bound like a namespace's (`fs.readFileSync`); not in es_modules.scm, which
; JavaScript's grammar reads too and has no such node
(import_statement (import_require_clause (identifier) @import.alias source: (string (string_fragment) @import)))

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments (measured: 2% of the query)
(call_expression . function: (identifier) @ref.call)
(call_expression . function: (member_expression property: (property_identifier) @ref.call))
(new_expression constructor: (identifier) @ref.type)
(type_identifier) @ref.type
; `extends Base` / `extends React.Component`: a value, not a type, in TypeScript's grammar
(extends_clause value: (identifier) @ref.type)
(extends_clause value: (member_expression property: (property_identifier) @ref.type))

; decorators written before a declaration (kept in its signature)
(class_body (decorator) . (_) @decorated)
(export_statement (decorator) . (_) @decorated)
