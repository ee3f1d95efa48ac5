; An impl block names its methods after its type (crate.module.Type.method); it is no symbol itself.
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @container
; A trait implementation: the type inherits the trait.
(impl_item trait: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.implementation
(use_declaration argument: (scoped_identifier) @import)
(use_declaration argument: (scoped_use_list path: (_) @import))
