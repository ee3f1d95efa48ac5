; Declared types of names (fields, parameters, locals): a call on the name is resolved in its type.
(field_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @variable))
(local_variable_declaration type: (_) @type declarator: (variable_declarator name: (identifier) @variable))
(formal_parameter type: (_) @type name: (identifier) @variable)
(enhanced_for_statement type: (_) @type name: (identifier) @variable)
; `var cart = new Cart()`: the type is the constructor's (the declared `var` is skipped by name).
(local_variable_declaration declarator: (variable_declarator name: (identifier) @variable value: (object_creation_expression type: (_) @type)))
