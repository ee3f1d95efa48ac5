; Declared types of names (properties, parameters, locals): a call on the name is resolved in its type.
; `let store: Store`, `var repo: Repository?` (an optional's wrapped type; `[Store]` is an array, no Store).
(property_declaration name: (pattern bound_identifier: (simple_identifier) @variable) (type_annotation (_) @type))
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @variable) (type_annotation (_) @type))
; `func add(_ item: Item, to cart: Cart)`: the name the body uses (item, not its label _), then its type.
(parameter name: (simple_identifier) @variable name: (_) @type)
; `let store = Store()`, `let box = Box<Int>()`, `let e = _Encoder()`: a call of a capitalised name is an initializer.
(property_declaration name: (pattern bound_identifier: (simple_identifier) @variable)
  value: (call_expression . (simple_identifier) @type) (#match? @type "^_*[A-Z]"))
(property_declaration name: (pattern bound_identifier: (simple_identifier) @variable)
  value: (constructor_expression constructed_type: (user_type) @type))
; `let cart = makeCart()`: the type the function returns (`returns` in language.toml).
(property_declaration name: (pattern bound_identifier: (simple_identifier) @variable)
  value: (call_expression . (simple_identifier) @returned) (#match? @returned "^_*[a-z]"))
