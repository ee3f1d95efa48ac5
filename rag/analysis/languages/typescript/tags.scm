; TypeScript reads JavaScript's tags.scm too (language.toml: extends); its class heritage has clauses.
(extends_clause value: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.implementation
(implements_clause [(type_identifier) @name (generic_type name: (type_identifier) @name)]) @reference.implementation
