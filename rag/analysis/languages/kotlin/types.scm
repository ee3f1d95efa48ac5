; Declared types of names (properties, constructor and function parameters, locals): a call on the name is
; resolved in its type.
(variable_declaration (identifier) @variable (user_type) @type)
(class_parameter (identifier) @variable (user_type) @type)
(parameter (identifier) @variable (user_type) @type)
; `val cart = Cart()`: a call of a capitalised name is taken for a constructor.
(property_declaration (variable_declaration (identifier) @variable .) . (call_expression . (identifier) @type) (#match? @type "^[A-Z]"))
