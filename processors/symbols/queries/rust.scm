; Rust: modules are Namespaces; `impl T` and `impl Trait for T` are scopes named T, so
; methods read `T.method`; traits are Interfaces.

(mod_item name: (identifier) @name) @def.Namespace
(struct_item name: (type_identifier) @name) @def.Type
(union_item name: (type_identifier) @name) @def.Type
(enum_item name: (type_identifier) @name) @def.Enum
(enum_variant name: (identifier) @name) @def.Field
(trait_item name: (type_identifier) @name) @def.Interface
(type_item name: (type_identifier) @name) @def.Other
(associated_type name: (type_identifier) @name) @def.Other
(function_item name: (identifier) @name parameters: (parameters) @params) @def.Function
(function_signature_item name: (identifier) @name parameters: (parameters) @params) @def.Function
(field_declaration name: (field_identifier) @name) @def.Field
(const_item name: (identifier) @name) @def.Field
(static_item name: (identifier) @name) @def.Field
(macro_definition name: (identifier) @name) @def.Other
(impl_item type: [(type_identifier) @scope.name (generic_type type: [(type_identifier) @scope.name (scoped_type_identifier name: (type_identifier) @scope.name)]) (scoped_type_identifier name: (type_identifier) @scope.name)]) @scope
; `impl Tr for bool`, `for &'a str`, `for &mut Vec<u8>`: a scope named by the type; a type
; written by its path (`for fmt::DebugMap<'a>`, `for std::boxed::Box<T>`) by its last segment
(impl_item type: (primitive_type) @scope.name) @scope
(impl_item type: (reference_type type: [(type_identifier) @scope.name (primitive_type) @scope.name (generic_type type: [(type_identifier) @scope.name (scoped_type_identifier name: (type_identifier) @scope.name)]) (scoped_type_identifier name: (type_identifier) @scope.name)])) @scope
; `impl Tr for ()`, `for (A, B)`, `for [T]`, `for [T; N]` (or a reference to one): a type with
; no name of its own, scoped as rustdoc files such impls, by the primitive (`unit`, `tuple`,
; `slice`, `array`)
(impl_item type: [(unit_type) (reference_type type: (unit_type))] @name.unit) @scope
(impl_item type: [(tuple_type) (reference_type type: (tuple_type))] @name.tuple) @scope
(impl_item type: [(array_type !length) (reference_type type: (array_type !length))] @name.slice) @scope
(impl_item type: [(array_type length: (_)) (reference_type type: (array_type length: (_)))] @name.array) @scope
; `impl Tr for fn(u8)`, `for *const T`, `for !`: the primitives rustdoc calls `fn`, `pointer`
; and `never`; `impl dyn Any + Send`, `for &dyn Error`: a trait object, scoped by its trait
(impl_item type: [(function_type) (reference_type type: (function_type))] @name.fn) @scope
(impl_item type: (pointer_type) @name.pointer) @scope
(impl_item type: (never_type) @name.never) @scope
(impl_item type: [(dynamic_type trait: [(type_identifier) @scope.name (generic_type type: [(type_identifier) @scope.name (scoped_type_identifier name: (type_identifier) @scope.name)]) (scoped_type_identifier name: (type_identifier) @scope.name)]) (bounded_type . (dynamic_type trait: [(type_identifier) @scope.name (generic_type type: [(type_identifier) @scope.name (scoped_type_identifier name: (type_identifier) @scope.name)]) (scoped_type_identifier name: (type_identifier) @scope.name)])) (reference_type type: (dynamic_type trait: [(type_identifier) @scope.name (generic_type type: [(type_identifier) @scope.name (scoped_type_identifier name: (type_identifier) @scope.name)]) (scoped_type_identifier name: (type_identifier) @scope.name)]))]) @scope

; a use tree, expanded into one import per leaf by languages/rust.use_leaves
(use_declaration argument: (_) @import.tree)
(extern_crate_declaration) @import.tree
; `mod kv;` loads the module's file (kv.rs or kv/mod.rs): an import of it, binding no name
; (languages/rust.use_imports); an inline `mod tests { ... }` loads none
(mod_item !body) @import.tree

; `.`: a call starts with its function, so tree-sitter may drop the partial match at the
; call's first child instead of carrying it through the arguments
(call_expression . function: (identifier) @ref.call)
(call_expression . function: (field_expression field: (field_identifier) @ref.call))
(call_expression . function: (scoped_identifier name: (identifier) @ref.call))
; a value through a path that is no call (`super::ENCODINGS`, a variant `Mode::Search`), where
; values stand; not a use declaration's path
(arguments (scoped_identifier name: (identifier) @ref.call))
(tuple_struct_pattern type: (scoped_identifier name: (identifier) @ref.call))
(match_pattern (scoped_identifier name: (identifier) @ref.call))
(field_initializer value: (scoped_identifier name: (identifier) @ref.call))
(let_declaration value: (scoped_identifier name: (identifier) @ref.call))
(reference_expression value: (scoped_identifier name: (identifier) @ref.call))
(binary_expression (scoped_identifier name: (identifier) @ref.call))
(return_expression (scoped_identifier name: (identifier) @ref.call))
(array_expression (scoped_identifier name: (identifier) @ref.call))
(macro_invocation macro: (identifier) @ref.call)
(macro_invocation macro: (scoped_identifier name: (identifier) @ref.call))
; the type a path starts from (`Platform::new()`, `Mode::Search`, `crate::x::Config::new()`):
; a use of that type, as a type written in a signature is; a module (`config::load()`) is not
((scoped_identifier path: (identifier) @ref.type) (#match? @ref.type "^[A-Z]") (#not-eq? @ref.type "Self"))
((scoped_identifier path: (scoped_identifier name: (identifier) @ref.type)) (#match? @ref.type "^[A-Z]"))
(type_identifier) @ref.type

; attributes written before an item (kept in its signature)
(source_file (attribute_item) . (_) @decorated)
(declaration_list (attribute_item) . (_) @decorated)
(field_declaration_list (attribute_item) . (_) @decorated)
(enum_variant_list (attribute_item) . (_) @decorated)
