; Go: the package clause prefixes every name; methods are owned by their receiver's type.

(package_clause (package_identifier) @package)
; a type's signature ends where its fields or methods begin (`Order struct`)
(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @def.Type
(type_spec name: (type_identifier) @name type: (interface_type "{" @body)) @def.Interface
(type_spec name: (type_identifier) @name type: [(type_identifier) (qualified_type) (function_type) (map_type) (slice_type) (pointer_type) (channel_type) (array_type) (generic_type)]) @def.Other
(type_alias name: (type_identifier) @name) @def.Other
(function_declaration name: (identifier) @name parameters: (parameter_list) @params) @def.Function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: [(type_identifier) @parent (pointer_type (type_identifier) @parent) (generic_type type: (type_identifier) @parent) (pointer_type (generic_type type: (type_identifier) @parent))]))
  name: (field_identifier) @name parameters: (parameter_list) @params) @def.Method
(field_declaration_list (field_declaration name: (field_identifier) @name) @def.Field)
; an embedded field is named by its type, the package and `*` left out (`*Config`,
; `gorm.Model`, `Base[T]`): the spec's field name, the one its promoted members come through
(field_declaration_list (field_declaration !name type: (type_identifier) @name) @def.Field)
(field_declaration_list (field_declaration !name type: (qualified_type name: (type_identifier) @name)) @def.Field)
(field_declaration_list (field_declaration !name type: (generic_type type: (type_identifier) @name)) @def.Field)
(field_declaration_list (field_declaration !name type: (generic_type type: (qualified_type name: (type_identifier) @name))) @def.Field)
(method_elem name: (field_identifier) @name parameters: (parameter_list) @params) @def.Method
; a const spec's names are its identifiers (its value is an expression list): the grammar's
; `name:` field matches only the first of `const X, Y = 1, 2`
(source_file (const_declaration (const_spec (identifier) @name) @def.Field))
(source_file (var_declaration (var_spec name: (identifier) @name) @def.Field))
; `var ( A = 1; B = 2 )`: the grouped form has a list node of its own
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @def.Field)))

; a blank (`_`) or dot (`.`) import binds no name of its own, but it is an import all the same
(import_spec name: [(package_identifier) (blank_identifier) (dot)] @import.alias path: (interpreted_string_literal) @import)
(import_spec !name path: (interpreted_string_literal) @import)
; a `//go:embed` directive above a package-level var names the files the package embeds
((source_file (comment) @import.embed) (#match? @import.embed "^//go:embed[ \t]"))

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments
(call_expression . function: (identifier) @ref.call)
(call_expression . function: (selector_expression operand: (_) field: (field_identifier) @ref.call))
; a generic function called with its type arguments written: `Query[int](c, "k")` parses as
; an index expression (`pkg.F[T](...)` is read as a value through the import below)
(call_expression . function: (index_expression operand: (identifier) @ref.call))
(type_identifier) @ref.type
; a package-level name read through an import as a value, not called (`features.Finder`,
; `viper.RemoteConfig = x`, `mapstructure.StringToTimeDurationHookFunc` passed along): kept only
; when the operand is an import's local name (languages/go.imported_member), so `v.name` is none
(selector_expression operand: (identifier) field: (field_identifier) @ref.value)
