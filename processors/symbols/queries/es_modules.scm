; ECMAScript modules, read after typescript.scm and javascript.scm by the grammars of TypeScript,
; TSX and JavaScript (both have these nodes).
; a module, with the names it imports (`{ A, B as C }`, read by the extractor: one match per
; statement, not one per name), its namespace (`* as ns`) and its default import (`import
; Button from "./Button"`: the default export, taken to be declared under that name); the
; extractor qualifies the references to them (processors/symbols/extract.py: _js_import)
(import_statement (import_clause . (identifier)? @import.default [(named_imports) @import.names (namespace_import (identifier) @import.alias)]?)? source: (string (string_fragment) @import))
; a re-export (`export { A } from "./x"`, `export * from "./x"`): a barrel depends on the
; modules it re-exports (dependents follow it to them); it binds no name in the file
(export_statement source: (string (string_fragment) @import))
; a local export list (`export { output as infer }`, no `from`): the names a file exports under
; another name than it declares them (the extractor records the renamed ones with its imports)
(export_statement (export_clause) @import.exports !source)
; a dynamic import (`await import("./lazy")`, a router's `() => import("./pages/About")`): the
; module, as a CommonJS `require` is (the `import` call is kept as an import call); bound to a
; name or destructured after an `await`, scoped like one (languages/js_ts_imports.py)
(call_expression . function: (import) @import.via arguments: (arguments . (string (string_fragment) @import)))
(variable_declarator name: [(identifier) @import.alias (object_pattern) @import.names] value: (await_expression (call_expression . function: (import) @import.via arguments: (arguments . (string (string_fragment) @import)))))
; a module's top-level export statement: a file that exports is a module even without imports,
; so its unqualified names are its own, not a script's globals (extract.py records it)
(program (export_statement) @export)
