; Kotlin: the package header prefixes every name; `interface`/`enum class` are read from the
; declaration's keyword; objects are Types; properties are Properties.

(package_header (qualified_identifier) @package)
(class_declaration "interface" name: (identifier) @name (class_body) @body) @def.Interface
(class_declaration "interface" name: (identifier) @name) @def.Interface
(class_declaration (modifiers (class_modifier "enum")) name: (identifier) @name (enum_class_body) @body) @def.Enum
(class_declaration name: (identifier) @name (class_body) @body) @def.Type
(class_declaration name: (identifier) @name) @def.Type
(object_declaration name: (identifier) @name (class_body) @body) @def.Type
(object_declaration name: (identifier) @name) @def.Type
(enum_entry (identifier) @name) @def.Field
(function_declaration name: (identifier) @name (function_value_parameters) @params (function_body) @body) @def.Function
(function_declaration name: (identifier) @name (function_value_parameters) @params) @def.Function
(property_declaration (variable_declaration (identifier) @name)) @def.Property
; a primary constructor's `val`/`var` parameters are the class's properties
(class_parameter ["val" "var"] . (identifier) @name) @def.Property
(companion_object "object" . (identifier) @name (class_body) @body) @def.Type
(companion_object "object" . (identifier) @name) @def.Type
; an unnamed companion object is named `Companion` (`import okio.ByteString.Companion.of`)
(companion_object "object" @name.Companion . (class_body) @body) @def.Type
(type_alias "typealias" . (identifier) @name) @def.Other

(import (qualified_identifier) @import)

(call_expression (identifier) @ref.call)
(call_expression (navigation_expression (identifier) @ref.call .))
; a class or object named before a dot, members of one of its own package that no import names
; (`SegmentPool.take()`, `Parser.LIMIT`): a reference unless written in lower case, as in Java
; (`list.size` reads a variable)
(navigation_expression . (identifier) @ref.element)
(user_type (identifier) @ref.type)
