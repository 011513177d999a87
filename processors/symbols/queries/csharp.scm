; C#: namespaces (block and file-scoped), types, members; constructors are Methods,
; indexers Properties, events Fields, delegates Other (the reference's kinds).

(file_scoped_namespace_declaration name: (_) @package)
(namespace_declaration name: (_) @name) @def.Namespace
(class_declaration name: (identifier) @name) @def.Type
(struct_declaration name: (identifier) @name) @def.Type
(record_declaration name: (identifier) @name) @def.Type
(interface_declaration name: (identifier) @name) @def.Interface
(enum_declaration name: (identifier) @name) @def.Enum
(enum_member_declaration name: (identifier) @name) @def.Field
(delegate_declaration name: (identifier) @name) @def.Other
(method_declaration name: (identifier) @name parameters: (parameter_list) @params) @def.Method
(constructor_declaration name: (identifier) @name parameters: (parameter_list) @params) @def.Method
(local_function_statement name: (identifier) @name parameters: (parameter_list) @params) @def.Function
(destructor_declaration name: (identifier) @name) @def.Method
(operator_declaration operator: _ @name parameters: (parameter_list) @params) @def.Method
; an expression-bodied member's signature ends at its `=>` (`public int X`)
(property_declaration name: (identifier) @name value: (arrow_expression_clause) @body) @def.Property
(property_declaration name: (identifier) @name) @def.Property
; an indexer (`public string this[int i]`) is named `Item`, its name in .NET (the
; IndexerName default, `get_Item`), not the keyword `this`
(indexer_declaration "this" @name.Item parameters: (bracketed_parameter_list) @params value: (arrow_expression_clause) @body) @def.Property
(indexer_declaration "this" @name.Item parameters: (bracketed_parameter_list) @params) @def.Property
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.Field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.Field
(event_declaration name: (identifier) @name) @def.Field

(using_directive (qualified_name) @import)
(using_directive (identifier) @import)

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments
(invocation_expression . function: (identifier) @ref.call)
(invocation_expression . function: (member_access_expression name: (identifier) @ref.call))
; a class named before a dot, its static members (`Tokenizer.Tokenize(...)`, `Limits.Max`): a
; reference unless written in lower case, as in Java (`list.Clear()` reads a variable)
(member_access_expression expression: (identifier) @ref.element)
(object_creation_expression type: (identifier) @ref.type)
(object_creation_expression type: (generic_name (identifier) @ref.type))
(base_list (identifier) @ref.type)
(base_list (generic_name (identifier) @ref.type))
(parameter type: (identifier) @ref.type)
(variable_declaration type: (identifier) @ref.type)
(property_declaration type: (identifier) @ref.type)
(method_declaration returns: (identifier) @ref.type)
(type_argument_list (identifier) @ref.type)
(attribute name: (identifier) @ref.type)
(typeof_expression type: (identifier) @ref.type)
(cast_expression type: (identifier) @ref.type)
