; Declared types of names (properties, class and function parameters, lambda parameters, locals): a call on the
; name is resolved in its type.
(val_definition pattern: (identifier) @variable type: (_) @type)
(var_definition pattern: (identifier) @variable type: (_) @type)
(val_declaration name: (identifier) @variable type: (_) @type)
(var_declaration name: (identifier) @variable type: (_) @type)
(class_parameter name: (identifier) @variable type: (_) @type)
(parameter name: (identifier) @variable type: (_) @type)
(binding name: (identifier) @variable type: (_) @type)
; `val cart = new Cart()`, `val cart = new Cart[Int]`: the class made.
(val_definition pattern: (identifier) @variable !type
  value: (instance_expression [(type_identifier) @type (generic_type type: (type_identifier) @type)]))
(var_definition pattern: (identifier) @variable !type
  value: (instance_expression [(type_identifier) @type (generic_type type: (type_identifier) @type)]))
; `val cart = Cart(Nil)`: a call of a capitalised name is a case class's (or a companion's `apply`).
(val_definition pattern: (identifier) @variable !type
  value: (call_expression function: (identifier) @type) (#match? @type "^[A-Z]"))
; `val cart = makeCart(1)`: what the function called returns (`returns` in language.toml).
(val_definition pattern: (identifier) @variable !type
  value: (call_expression function: (identifier) @returned) (#match? @returned "^[a-z]"))
