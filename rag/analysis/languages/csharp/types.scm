; Declared types of names (fields, properties, parameters, locals): a call on the name is resolved in its type.
(variable_declaration type: (_) @type (variable_declarator name: (identifier) @variable))
(property_declaration type: (_) @type name: (identifier) @variable)
(parameter type: (_) @type name: (identifier) @variable)
(foreach_statement type: (_) @type left: (identifier) @variable)
; `var cart = new Cart()`: the type is the constructor's (a declared type, `IStore store = new Store()`, is the one written).
(variable_declaration type: (implicit_type) (variable_declarator name: (identifier) @variable (object_creation_expression type: (_) @type)))
