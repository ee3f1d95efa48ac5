; Declared types of names (struct fields, parameters, variables): a call on the name is resolved in its type.
(field_declaration name: (field_identifier) @variable type: (_) @type)
(parameter_declaration name: (identifier) @variable type: (_) @type)
(var_spec name: (identifier) @variable type: (_) @type)
; `cart := Cart{}` and `cart := &Cart{}`: the type is the literal's.
(short_var_declaration left: (expression_list . (identifier) @variable) right: (expression_list . (composite_literal type: (_) @type)))
(short_var_declaration left: (expression_list . (identifier) @variable) right: (expression_list . (unary_expression operand: (composite_literal type: (_) @type))))
; `cart := NewCart()` and `cart := shop.NewCart()`: the type the function returns (language.toml: returns).
(short_var_declaration left: (expression_list . (identifier) @variable) right: (expression_list . (call_expression function: (identifier) @returned)))
(short_var_declaration left: (expression_list . (identifier) @variable) right: (expression_list . (call_expression function: (selector_expression field: (field_identifier) @returned))))
