(package_declaration [(scoped_identifier) (identifier)] @package)
(enum_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(constructor_declaration name: (identifier) @name) @definition.method
(import_declaration (scoped_identifier) @import)
