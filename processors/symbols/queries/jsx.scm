; JSX (read after javascript.scm and typescript.scm by the grammars that parse it: JavaScript,
; TSX): a component written as an element is a reference. `<OrderView />` names a component,
; `<div>` an HTML element (lower case: the extractor drops it), `<ui.Button>` a component
; qualified by what the file imported as `ui`. Opening and self-closing tags only: a closing
; tag repeats its opening one.
(jsx_opening_element . name: (identifier) @ref.element)
(jsx_self_closing_element . name: (identifier) @ref.element)
(jsx_opening_element . name: (member_expression property: (property_identifier) @ref.type))
(jsx_self_closing_element . name: (member_expression property: (property_identifier) @ref.type))
