; PHP: the namespace prefixes every name; traits are Types; `use` clauses are imports.

(namespace_definition name: (namespace_name) @package)
(class_declaration name: (name) @name) @def.Type
(trait_declaration name: (name) @name) @def.Type
(interface_declaration name: (name) @name) @def.Interface
(enum_declaration name: (name) @name) @def.Enum
(enum_case name: (name) @name) @def.Field
(method_declaration name: (name) @name parameters: (formal_parameters) @params) @def.Method
(function_definition name: (name) @name parameters: (formal_parameters) @params) @def.Function
(property_declaration (property_element name: (variable_name (name) @name))) @def.Field
(const_declaration (const_element (name) @name)) @def.Field
; a script's global variables (`$number = 2;` at file level), as a module's names elsewhere
(program (expression_statement (assignment_expression left: (variable_name (name) @name))) @def.Field)
; a global constant defined by a call (`define('APP_ROOT', __DIR__);`), as ctags reports it
((expression_statement (function_call_expression function: (name) @_define arguments: (arguments . (argument [(string (string_content) @name) (encapsed_string . (string_content) @name .)])))) @def.Field (#eq? @_define "define"))

(namespace_use_clause (qualified_name) @import alias: (name) @import.alias)
(namespace_use_clause (qualified_name) @import)

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments
(function_call_expression . function: (name) @ref.call)
(function_call_expression . function: (qualified_name (name) @ref.call))
(scoped_call_expression name: (name) @ref.call)
(member_call_expression name: (name) @ref.call)
(object_creation_expression (name) @ref.type)
(named_type (name) @ref.type)
(base_clause (name) @ref.type)
(class_interface_clause (name) @ref.type)
