; C: functions (prototypes only when not defined in the same file), structs, unions, enums,
; typedefs, macros, globals; #include as imports.

(function_definition declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params)) @def.Function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params))) @def.Function
; `@top`: at file level, include guards, `#if` branches and `extern "C"` blocks included
; (languages/c_family.py), not a function's local
(declaration declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params)) @def.Function @decl @top
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params))) @def.Function @decl @top
(declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params)))) @def.Function @decl @top
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.Type
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.Type
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.Enum
(enumerator name: (identifier) @name) @def.Field
(field_declaration declarator: (field_identifier) @name) @def.Field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @def.Field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @def.Field
; `struct node **children;`, a function pointer member `void (*on_error)(void *);`
(field_declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))) @def.Field
(field_declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))) @def.Field
(type_definition declarator: (type_identifier) @name @def.Other)
; a pointer, array or function-pointer type (`typedef void (*callback_t)(int);`)
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name @def.Other))
(type_definition declarator: (array_declarator declarator: (type_identifier) @name @def.Other))
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name @def.Other))))
(preproc_def name: (identifier) @name) @def.Other
(preproc_function_def name: (identifier) @name) @def.Other
; global variables, pointers and arrays (`static const char *names[] = {...}`) and function
; pointers (`static int (*real_read)(int);`)
(declaration declarator: (init_declarator declarator: (identifier) @name)) @def.Field @top
(declaration declarator: (identifier) @name) @def.Field @top
(declaration declarator: (init_declarator declarator: [(pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name) (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)) (array_declarator declarator: (array_declarator declarator: (identifier) @name))])) @def.Field @top
(declaration declarator: [(pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name) (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))]) @def.Field @top
(declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))) @def.Field @top
(declaration declarator: (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))) @def.Field @top

(preproc_include path: (string_literal (string_content) @import))
(preproc_include path: (system_lib_string) @import)

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments
(call_expression . function: (identifier) @ref.call)
(call_expression . function: (field_expression field: (field_identifier) @ref.call))
(type_identifier) @ref.type
