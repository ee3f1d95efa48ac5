; Declared types of names (fields, properties, parameters, locals): a call on the name is resolved in its type.
(variable_declaration type: (_) @type (variable_declarator name: (identifier) @variable))
(property_declaration type: (_) @type name: (identifier) @variable)
(parameter type: (_) @type name: (identifier) @variable)
(foreach_statement type: (_) @type left: (identifier) @variable)
; `var cart = new Cart()`: the type is the constructor's.
(variable_declaration (variable_declarator name: (identifier) @variable (object_creation_expression type: (_) @type)))
