; Declared types of names (members, parameters, locals): a call on the name is resolved in its type.
; A declarator may wrap the name in a pointer, a reference or an initialiser.
(field_declaration type: (_) @type declarator: (field_identifier) @variable)
(field_declaration type: (_) @type declarator: [(pointer_declarator declarator: (field_identifier) @variable) (reference_declarator (field_identifier) @variable)])
(parameter_declaration type: (_) @type declarator: (identifier) @variable)
(parameter_declaration type: (_) @type declarator: [(pointer_declarator declarator: (identifier) @variable) (reference_declarator (identifier) @variable)])
(declaration type: (_) @type declarator: (identifier) @variable)
(declaration type: (_) @type declarator: [(pointer_declarator declarator: (identifier) @variable) (reference_declarator (identifier) @variable)])
(declaration type: (_) @type declarator: (init_declarator declarator: (identifier) @variable))
(declaration type: (_) @type declarator: (init_declarator declarator: [(pointer_declarator declarator: (identifier) @variable) (reference_declarator (identifier) @variable)]))
; `auto cart = Cart(...)`: a call of a capitalised name is taken for a constructor.
(declaration type: (placeholder_type_specifier) declarator: (init_declarator declarator: (identifier) @variable value: (call_expression function: (identifier) @type)) (#match? @type "^[A-Z]"))
