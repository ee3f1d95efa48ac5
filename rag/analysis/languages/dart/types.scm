; Declared types of names: a call on the name is resolved in its type.
; Locals: `final Cart cart = ...`, `Cart? cart;`, `List<Item> items = []` (its type is List).
(initialized_variable_definition (type_identifier) @type name: (identifier) @variable)
; ... bound to a new object: `var cart = Cart()`, `final cart = Cart.empty()`, `final c = new Cart()`,
; `const c = Cart()` (a call of a capitalised name is taken for a constructor).
(initialized_variable_definition name: (identifier) @variable
  value: (identifier) @type . (selector (argument_part)) .
  (#match? @type "^[A-Z]"))
(initialized_variable_definition name: (identifier) @variable
  value: (identifier) @type . (selector (unconditional_assignable_selector)) . (selector (argument_part)) .
  (#match? @type "^[A-Z]"))
(initialized_variable_definition name: (identifier) @variable
  value: [(new_expression (type_identifier) @type) (const_object_expression (type_identifier) @type)])
; ... or to what a function returns: `final repo = makeRepo()` has the type makeRepo's signature names.
(initialized_variable_definition name: (identifier) @variable
  value: (identifier) @returned . (selector (argument_part)) .
  (#match? @returned "^[a-z_]"))
; Fields: `final CartRepository _repo;`, `static final Cart empty = ...`, and `final _repo = Repo();`.
(declaration (type_identifier) @type (initialized_identifier_list (initialized_identifier . (identifier) @variable)))
(declaration (type_identifier) @type (static_final_declaration_list (static_final_declaration . (identifier) @variable)))
(initialized_identifier . (identifier) @variable . (identifier) @type . (selector (argument_part)) .
  (#match? @type "^[A-Z]"))
(static_final_declaration . (identifier) @variable . (identifier) @type . (selector (argument_part)) .
  (#match? @type "^[A-Z]"))
; Parameters: `void add(Cart cart)`, `{required Cart cart}`.
(formal_parameter (type_identifier) @type name: (identifier) @variable)
