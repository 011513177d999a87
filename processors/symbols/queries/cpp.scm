; C++: namespaces, classes/structs/unions, enums, functions and methods (in-class
; declarations only when not defined in the same file; `A::f` definitions owned by A),
; fields, typedefs/aliases, macros; #include as imports.

(namespace_definition name: (_) @name) @def.Namespace
(class_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.Type
(struct_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.Type
(union_specifier name: (type_identifier) @name body: (field_declaration_list)) @def.Type
; a specialization (`template <> struct Hash<int> {...}`) is named by its template
(class_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list)) @def.Type
(struct_specifier name: (template_type name: (type_identifier) @name) body: (field_declaration_list)) @def.Type
(enum_specifier name: (type_identifier) @name body: (enumerator_list)) @def.Enum
(enumerator name: (identifier) @name) @def.Field
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (_) @parent name: (_) @name) parameters: (parameter_list) @params)) @def.Method
(function_definition declarator: (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @parent name: (_) @name) parameters: (parameter_list) @params))) @def.Method
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @parent name: (_) @name) parameters: (parameter_list) @params))) @def.Method
(function_definition declarator: (function_declarator declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name parameters: (parameter_list) @params)) @def.Function
(function_definition declarator: (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name)] @name parameters: (parameter_list) @params))) @def.Function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier)] @name parameters: (parameter_list) @params))) @def.Function
(field_declaration declarator: (function_declarator declarator: [(field_identifier) (destructor_name) (operator_name)] @name parameters: (parameter_list) @params)) @def.Method @decl
; returning a pointer or a reference, ref-qualified or not (`T* get() const;`, `T& value() &;`)
(field_declaration declarator: [(pointer_declarator declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name parameters: (parameter_list) @params)) (reference_declarator (function_declarator declarator: [(field_identifier) (operator_name)] @name parameters: (parameter_list) @params))]) @def.Method @decl
; an explicit specialization (`template <> void run<true>() {...}`) is named by its template
(function_definition declarator: (function_declarator declarator: (template_function name: (identifier) @name) parameters: (parameter_list) @params)) @def.Function
(function_definition declarator: [(pointer_declarator declarator: (function_declarator declarator: (template_function name: (identifier) @name) parameters: (parameter_list) @params)) (reference_declarator (function_declarator declarator: (template_function name: (identifier) @name) parameters: (parameter_list) @params))]) @def.Function
; conversion operators (`operator bool() const`), named `operator bool` (declaration.py)
(function_definition declarator: (operator_cast) @name) @def.Function
(function_definition declarator: (qualified_identifier scope: (_) @parent name: (operator_cast) @name)) @def.Method
(declaration declarator: (operator_cast) @name) @def.Function @decl
; a friend's prototype declares no member: not kept (languages/c_family.py)
(declaration declarator: (function_declarator declarator: [(identifier) (destructor_name) (operator_name)] @name parameters: (parameter_list) @params)) @def.Function @decl
(declaration declarator: [(pointer_declarator declarator: (function_declarator declarator: [(identifier) (operator_name)] @name parameters: (parameter_list) @params)) (reference_declarator (function_declarator declarator: [(identifier) (operator_name)] @name parameters: (parameter_list) @params))]) @def.Function @decl @top
(field_declaration declarator: (field_identifier) @name) @def.Field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @def.Field
(field_declaration declarator: (reference_declarator (field_identifier) @name)) @def.Field
(field_declaration declarator: (array_declarator declarator: (field_identifier) @name)) @def.Field
; `struct node **children;`, a function pointer member `void (*on_error)(void *);`
(field_declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (field_identifier) @name))) @def.Field
(field_declaration declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))) @def.Field
(type_definition declarator: (type_identifier) @name @def.Other)
; a pointer, array or function-pointer type (`typedef void (*callback_t)(int);`)
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @name @def.Other))
(type_definition declarator: (array_declarator declarator: (type_identifier) @name @def.Other))
(type_definition declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name @def.Other))))
(alias_declaration name: (type_identifier) @name) @def.Other
; `@top`: at file level, in namespaces, `#if` branches and `extern "C"` blocks included
; (languages/c_family.py), not a function's local: globals, pointers and arrays, and a class's
; static member defined outside it (`int Counter::count = 0;`, owned by Counter)
(declaration declarator: (identifier) @name) @def.Field @top
(declaration declarator: (init_declarator declarator: (identifier) @name)) @def.Field @top
(declaration declarator: [(pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name) (reference_declarator (identifier) @name)]) @def.Field @top
(declaration declarator: (init_declarator declarator: [(pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name) (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)) (reference_declarator (identifier) @name)])) @def.Field @top
(declaration declarator: (qualified_identifier scope: (_) @parent name: (identifier) @name)) @def.Field @top
(declaration declarator: (init_declarator declarator: (qualified_identifier scope: (_) @parent name: (identifier) @name))) @def.Field @top
(declaration declarator: (init_declarator declarator: [(pointer_declarator declarator: (qualified_identifier scope: (_) @parent name: (identifier) @name)) (array_declarator declarator: (qualified_identifier scope: (_) @parent name: (identifier) @name))])) @def.Field @top
(declaration declarator: [(pointer_declarator declarator: (qualified_identifier scope: (_) @parent name: (identifier) @name)) (array_declarator declarator: (qualified_identifier scope: (_) @parent name: (identifier) @name))]) @def.Field @top
(preproc_def name: (identifier) @name) @def.Other
(preproc_function_def name: (identifier) @name) @def.Other

(preproc_include path: (string_literal (string_content) @import))
(preproc_include path: (system_lib_string) @import)

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments
(call_expression . function: (identifier) @ref.call)
(call_expression . function: (qualified_identifier name: (identifier) @ref.call))
(call_expression . function: (field_expression field: (field_identifier) @ref.call))
(type_identifier) @ref.type
