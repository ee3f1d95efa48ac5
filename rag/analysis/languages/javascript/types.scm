; Names bound to a new object (TypeScript and TSX read this too): a call on the name is resolved in its class.
(variable_declarator name: (identifier) @variable value: (new_expression constructor: (_) @type))
; `this.cart = new Cart()` in a constructor or method: a field of the class.
(assignment_expression left: (member_expression object: (this) property: (property_identifier) @field) right: (new_expression constructor: (_) @type))
