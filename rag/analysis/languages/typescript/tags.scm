; TypeScript reads JavaScript's tags.scm too (language.toml: extends); its class heritage has clauses.
(extends_clause value: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.implementation
(implements_clause [(type_identifier) @name (generic_type name: (type_identifier) @name)]) @reference.implementation
; A class's property whose value is a function (`handleClick = (e: Event) => {...}`, Angular's and React's handlers
; bound to their instance) is a method of the class.
(public_field_definition name: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
