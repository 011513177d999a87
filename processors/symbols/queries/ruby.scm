; Ruby: modules are Namespaces, classes Types, `def` Functions (Methods inside a class),
; `def self.x` Methods; require/require_relative/load as imports.

(module name: (_) @name) @def.Namespace
(class name: (_) @name) @def.Type
(method name: (_) @name parameters: (method_parameters) @params) @def.Function
(method name: (_) @name !parameters) @def.Function
(singleton_method name: (_) @name) @def.Method
(assignment left: (constant) @name) @def.Field

(call method: (identifier) @import.via arguments: (argument_list (string (string_content) @import)))

(call method: (identifier) @ref.call)
(superclass (constant) @ref.type)
(scope_resolution name: (constant) @ref.type)
(constant) @ref.type
