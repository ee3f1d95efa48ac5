(package_declaration [(scoped_identifier) (identifier)] @package)
(enum_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(constructor_declaration name: (identifier) @name) @definition.method
; A record's compact constructor (`public Point { ... }`) and an annotation type (`@interface Audited`).
(compact_constructor_declaration name: (identifier) @name) @definition.method
(annotation_type_declaration name: (identifier) @name) @definition.class
(import_declaration (scoped_identifier) @import)
; A superclass: the class inherits it (interfaces come from the grammar's own tags).
(superclass [(type_identifier) @name (generic_type (type_identifier) @name) (scoped_type_identifier (type_identifier) @name .)]) @reference.implementation
