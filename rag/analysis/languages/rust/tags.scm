; An impl block names its methods after its type (crate.module.Type.method); it is no symbol itself.
(impl_item type: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @container
; A trait implementation: the type inherits the trait.
(impl_item trait: [(type_identifier) @name (generic_type type: (type_identifier) @name)]) @reference.implementation
; A use declaration, pub or not, with its groups (`use a::{b, c::D}`), globs and aliases: one import
; per path, found through the crate's module tree.
(use_declaration argument: (_) @import)
; A call through a path (`WalkBuilder::new()`, `Self::build()`, `crate::walk::walk()`, `Vec::<u8>::new()`):
; the path is what the function is called on, a type or a module (resolved among its members).
(call_expression
  function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @reference.call
(call_expression
  function: (generic_function function: (scoped_identifier path: (_) @receiver name: (identifier) @name))) @reference.call
