; TypeScript reads JavaScript's tags.scm too (language.toml: extends); its class heritage has clauses.
(extends_clause value: [(identifier) @name (member_expression property: (property_identifier) @name)]) @reference.implementation
(implements_clause [(type_identifier) @name (generic_type name: (type_identifier) @name)]) @reference.implementation
; A class's property whose value is a function (`handleClick = (e: Event) => {...}`, Angular's and React's handlers
; bound to their instance) is a method of the class.
(public_field_definition name: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
; Enums and type aliases are types (the grammar's own queries name neither); a namespace (`namespace Util { ... }`, the
; grammar's internal_module: its tags name a `module` node this grammar no longer makes) is a scope of names whose
; functions stay functions, as a C++ namespace's: `Util.pad`.
(enum_declaration name: (identifier) @name) @definition.enum
(type_alias_declaration name: (type_identifier) @name) @definition.type
(internal_module name: [(identifier) (nested_identifier)] @name) @container.namespace
