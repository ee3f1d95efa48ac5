; Declared types of names (fields, parameters, locals): a call on the name is resolved in its type.
(public_field_definition name: (property_identifier) @variable type: (type_annotation (_) @type))
(required_parameter pattern: (identifier) @variable type: (type_annotation (_) @type))
(optional_parameter pattern: (identifier) @variable type: (type_annotation (_) @type))
(variable_declarator name: (identifier) @variable type: (type_annotation (_) @type))
; (`const cart = new Cart()` is JavaScript's types.scm, which TypeScript reads too.)
; A constructor parameter with an accessibility modifier (`constructor(private repo: Repo)`) is a field.
(required_parameter (accessibility_modifier) pattern: (identifier) @field type: (type_annotation (_) @type))
