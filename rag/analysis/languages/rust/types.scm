; Declared types of names (struct fields, parameters, `let` bindings): a call on the name is resolved in its type.
(field_declaration name: (field_identifier) @variable type: (_) @type)
(parameter pattern: (identifier) @variable type: (_) @type)
(let_declaration pattern: (identifier) @variable type: (_) @type)
; `let cart = Cart::new()` and `let cart = Cart { .. }`: the type is the one named (a capitalised path).
(let_declaration pattern: (identifier) @variable value: (call_expression function: (scoped_identifier path: (_) @type)) (#match? @type "[A-Z]\\w*$"))
(let_declaration pattern: (identifier) @variable value: (struct_expression name: (type_identifier) @type))
