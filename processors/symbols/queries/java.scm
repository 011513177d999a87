; Java: the package declaration prefixes every name; constructors are Methods.

(package_declaration [(scoped_identifier) (identifier)] @package)
(class_declaration name: (identifier) @name) @def.Type
(record_declaration name: (identifier) @name) @def.Type
(interface_declaration name: (identifier) @name) @def.Interface
(annotation_type_declaration name: (identifier) @name) @def.Interface
(enum_declaration name: (identifier) @name) @def.Enum
(enum_constant name: (identifier) @name) @def.Field
(method_declaration name: (identifier) @name parameters: (formal_parameters) @params) @def.Method
(constructor_declaration name: (identifier) @name parameters: (formal_parameters) @params) @def.Method
; a record's compact canonical constructor (`public Point { ... }`): javac's `<init>` too
(compact_constructor_declaration name: (identifier) @name) @def.Method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @def.Field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @def.Field
; an annotation's elements (`String[] alternate() default {}`): what `@SerializedName(...)` sets
(annotation_type_element_declaration name: (identifier) @name) @def.Method
; a record's components: its fields (and accessors)
(record_declaration parameters: (formal_parameters (formal_parameter name: (identifier) @name) @def.Field))

(import_declaration (scoped_identifier) @import)

(method_invocation !object name: (identifier) @ref.call)
(method_invocation object: (_) name: (identifier) @ref.call)
(object_creation_expression type: (type_identifier) @ref.type)
(type_identifier) @ref.type
; a class named before a dot, static members of one of its own package that no import names
; (`JsonParser.parseString(...)`, `Limits.MAX`): a reference unless written in lower case, as a
; JSX element's name is (`list.size()` reads a variable)
(method_invocation object: (identifier) @ref.element)
(field_access object: (identifier) @ref.element)
(marker_annotation name: (identifier) @ref.type)
(annotation name: (identifier) @ref.type)
