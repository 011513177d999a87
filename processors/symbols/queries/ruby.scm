; Ruby: modules are Namespaces, classes Types, `def` Functions (Methods inside a class),
; `def self.x` Methods; require/require_relative/load as imports.

; `class Sinatra::Base` is named `Base` and owned by `Sinatra`; `class ::Top` is `Top`
(module name: (constant) @name) @def.Namespace
(module name: (scope_resolution scope: (_) @parent name: (constant) @name)) @def.Namespace
(module name: (scope_resolution !scope name: (constant) @name)) @def.Namespace
(class name: (constant) @name) @def.Type
(class name: (scope_resolution scope: (_) @parent name: (constant) @name)) @def.Type
(class name: (scope_resolution !scope name: (constant) @name)) @def.Type
(method name: (_) @name parameters: (method_parameters) @params) @def.Function
(method name: (_) @name !parameters) @def.Function
(singleton_method name: (_) @name) @def.Method
(assignment left: (constant) @name) @def.Field

(call method: (identifier) @import.via arguments: (argument_list (string (string_content) @import)))

(call method: (identifier) @ref.call)
(superclass (constant) @ref.type)
(scope_resolution name: (constant) @ref.type)
(constant) @ref.type
