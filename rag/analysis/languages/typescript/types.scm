; Declared types of names (fields, parameters, locals): a call on the name is resolved in its type.
(public_field_definition name: (property_identifier) @variable type: (type_annotation (_) @type))
(required_parameter pattern: (identifier) @variable type: (type_annotation (_) @type))
(optional_parameter pattern: (identifier) @variable type: (type_annotation (_) @type))
(variable_declarator name: (identifier) @variable type: (type_annotation (_) @type))
; `const cart = new Cart()`: the type is the constructor's.
(variable_declarator name: (identifier) @variable value: (new_expression constructor: (_) @type))
