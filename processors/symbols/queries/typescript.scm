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
(method_signature name: (_) @name parameters: (formal_parameters) @params) @def.Method
(abstract_method_signature name: (_) @name parameters: (formal_parameters) @params) @def.Method
(public_field_definition name: (_) @name) @def.Field
(property_signature name: (_) @name) @def.Property
(program (lexical_declaration (variable_declarator name: (identifier) @name value: (arrow_function body: (_) @body))) @def.Function)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name value: (arrow_function body: (_) @body))) @def.Function))
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field)
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name)) @def.Field))

; a module, with the names it imports (`{ A, B as C }`, read by the extractor: one match per
; statement, not one per name), its namespace (`* as ns`) and its default import (`import
; Button from "./Button"`: the default export, taken to be declared under that name); the
; extractor qualifies the references to them (processors/symbols/extract.py: _js_import)
(import_statement (import_clause . (identifier)? @import.default [(named_imports) @import.names (namespace_import (identifier) @import.alias)]?)? source: (string (string_fragment) @import))
; a re-export (`export { A } from "./x"`, `export * from "./x"`): a barrel depends on the
; modules it re-exports (dependents follow it to them); it binds no name in the file
(export_statement source: (string (string_fragment) @import))

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments (measured: 2% of the query)
(call_expression . function: (identifier) @ref.call)
(call_expression . function: (member_expression property: (property_identifier) @ref.call))
(new_expression constructor: (identifier) @ref.type)
(type_identifier) @ref.type

; decorators written before a declaration (kept in its signature)
(class_body (decorator) . (_) @decorated)
(export_statement (decorator) . (_) @decorated)
