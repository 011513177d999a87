; JavaScript (and JSX): classes, functions, methods, fields, top-level consts, imports, calls, `new`.

(class_declaration name: (identifier) @name) @def.Type
(function_declaration name: (identifier) @name parameters: (formal_parameters) @params) @def.Function
(generator_function_declaration name: (identifier) @name parameters: (formal_parameters) @params) @def.Function
(method_definition name: (_) @name parameters: (formal_parameters) @params) @def.Method
(field_definition property: (_) @name) @def.Field
; a class expression bound to a top-level name (`var QueryClient = class { ... }`, what bundlers
; emit): a Type its methods nest in; before the Field patterns, so it wins the same node
(program (variable_declaration (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @def.Type)
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @def.Type)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: (class body: (class_body) @body))) @def.Type))
; a named class expression assigned to a member (`module.exports = class Application extends
; Emitter {...}`, `exports.Other = class Other {}`): koa's application; a Type its methods nest in
(program (expression_statement (assignment_expression left: (member_expression) right: (class name: (identifier) @name body: (class_body) @body))) @def.Type)
; a function bound to a top-level name (`export const f = <T>(x: T) => x`, `= function () {}`,
; `var f = function* () {}`): a Function, before the Field patterns, so it wins the same node
(program (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function))
(program (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function)
(program (export_statement (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)])) @def.Function))
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field))
(program (variable_declaration (variable_declarator name: (identifier) @name)) @def.Field)
(program (export_statement (variable_declaration (variable_declarator name: (identifier) @name)) @def.Field))
; a function assigned to a top-level object's member (`res.send = function send() {}`,
; `exports.f = () => {}`, `Foo.prototype.bar = function () {}`): how CommonJS modules declare
; their API; a Method of the object when that is a plain name
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @parent property: (property_identifier) @name) right: [(function_expression body: (_) @body) (arrow_function body: (_) @body)])) @def.Function)
(program (expression_statement (assignment_expression left: (member_expression object: (member_expression) property: (property_identifier) @name) right: [(function_expression body: (_) @body) (arrow_function body: (_) @body)])) @def.Function)

; a function that is a property of an object literal bound at file level (`const api = { get:
; (url) => fetch(url) }`, `export default { install: (app) => ... }`, `module.exports = {
; stringify: function () {} }`): a Method, named under the binding by nesting (api.get; the
; default export's and module.exports' members at file level, as `module.exports.f = ...`'s);
; its shorthand siblings (`post(url) {}`) are method_definitions. One object down, the key
; names a scope (api.admin.reset, api.admin.audit); deeper, or in an object passed as an
; argument, nothing: a large configuration object cannot fill the outline
(program (_ (variable_declarator name: (identifier) value: (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))))
(program (export_statement (_ (variable_declarator name: (identifier) value: (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)))))
(program (export_statement value: (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)))
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) right: (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))) (#eq? @_module "module") (#eq? @_exports "exports"))
(program (_ (variable_declarator name: (identifier) value: (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope))))
(program (export_statement (_ (variable_declarator name: (identifier) value: (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope)))))
(program (export_statement value: (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope)))
(program (expression_statement (assignment_expression left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports) right: (object (pair key: [(property_identifier) (string)] @scope.name value: (object [(pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method (method_definition)])) @scope))) (#eq? @_module "module") (#eq? @_exports "exports"))

; the same in the object a top-level function returns from its body (a factory's API:
; `function createStore() { return { get: () => state, set(v) {...} } }`, an unstorage driver
; `const driver = (opts) => { return { getItem: async (key) => ... } }`, `() => ({...})`):
; named under the function (createStore.get), as its shorthand methods already are; a return
; inside a branch or a nested function, nothing
(program [(function_declaration body: (statement_block (return_statement (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)))) (export_statement declaration: (function_declaration body: (statement_block (return_statement (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method)))))])
(program (_ (variable_declarator name: (identifier) value: [(arrow_function body: [(statement_block (return_statement (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))) (parenthesized_expression (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))]) (function_expression body: (statement_block (return_statement (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))))])))
(program (export_statement (_ (variable_declarator name: (identifier) value: [(arrow_function body: [(statement_block (return_statement (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))) (parenthesized_expression (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))]) (function_expression body: (statement_block (return_statement (object (pair key: [(property_identifier) (string)] @name value: [(arrow_function body: (_) @body) (function_expression body: (_) @body) (generator_function body: (_) @body)]) @def.Method))))]))))

; the functions a top-level function assigns onto the object it then returns (a factory
; building its API by assignment: `const middy = (h) => { const m = ...; m.use = (mw) => {...};
; return m }`): named under the function, as the members of an object literal it returns are
(program [(function_declaration body: (statement_block (expression_statement (assignment_expression left: (member_expression object: (identifier) @_obj property: (property_identifier) @name) right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])) @def.Method (return_statement (identifier) @_ret))) (export_statement declaration: (function_declaration body: (statement_block (expression_statement (assignment_expression left: (member_expression object: (identifier) @_obj property: (property_identifier) @name) right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])) @def.Method (return_statement (identifier) @_ret))))] (#eq? @_obj @_ret))
(program (_ (variable_declarator value: [(arrow_function body: (statement_block (expression_statement (assignment_expression left: (member_expression object: (identifier) @_obj property: (property_identifier) @name) right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])) @def.Method (return_statement (identifier) @_ret))) (function_expression body: (statement_block (expression_statement (assignment_expression left: (member_expression object: (identifier) @_obj property: (property_identifier) @name) right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])) @def.Method (return_statement (identifier) @_ret)))])) (#eq? @_obj @_ret))
(program (export_statement (_ (variable_declarator value: [(arrow_function body: (statement_block (expression_statement (assignment_expression left: (member_expression object: (identifier) @_obj property: (property_identifier) @name) right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])) @def.Method (return_statement (identifier) @_ret))) (function_expression body: (statement_block (expression_statement (assignment_expression left: (member_expression object: (identifier) @_obj property: (property_identifier) @name) right: [(arrow_function body: (_) @body) (function_expression body: (_) @body)])) @def.Method (return_statement (identifier) @_ret)))]))) (#eq? @_obj @_ret))

; imports and re-exports: es_modules.scm
; CommonJS: `require("./x")` names a module too (the extractor keeps the calls named require)
(call_expression . function: (identifier) @import.via arguments: (arguments . (string (string_fragment) @import)))
; bound to a name, it qualifies what the file calls through it (`const m = require("./m")`:
; `m.f()`), destructured, the names it binds (`const { A, B: C } = require("./x")`)
(variable_declarator name: [(identifier) @import.alias (object_pattern) @import.names] value: (call_expression . function: (identifier) @import.via arguments: (arguments . (string (string_fragment) @import))))
; one member of it bound to a name (`const f = require("./m").f`, `= require("./c").default`):
; that member, as `const { f } = require("./m")` binds it
(variable_declarator name: (identifier) @import.alias value: (member_expression object: (call_expression . function: (identifier) @import.via arguments: (arguments . (string (string_fragment) @import))) property: (property_identifier) @import.member))

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments (measured: 2% of the query)
(call_expression . function: (identifier) @ref.call)
(call_expression . function: (member_expression property: (property_identifier) @ref.call))
(new_expression constructor: (identifier) @ref.type)
(class_heritage (identifier) @ref.type)

; decorators written before a declaration (kept in its signature)
(export_statement (decorator) . (_) @decorated)
