(class_declaration name: (identifier) @name) @definition.class
(object_declaration name: (identifier) @name) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(call_expression (identifier) @name) @reference.call
(call_expression (navigation_expression (identifier) @name .)) @reference.call
(package_header (qualified_identifier) @package)
(import (qualified_identifier) @import)
; `class Cart : Priced(), Thing`: the class inherits its superclass and interfaces.
(delegation_specifier [(constructor_invocation (user_type (identifier) @name .)) (user_type (identifier) @name .)]) @reference.implementation
; Properties of a class, an object or a file (`val total: Int`, `val Cart.size`, a data class's `val id`), not locals.
(class_body (property_declaration (variable_declaration (identifier) @name)) @definition.field)
(enum_class_body (property_declaration (variable_declaration (identifier) @name)) @definition.field)
(source_file (property_declaration (variable_declaration (identifier) @name)) @definition.field)
(class_parameter ["val" "var"] (identifier) @name) @definition.field
(type_alias type: (identifier) @name) @definition.type
