; The file's package: `package com.shop`, its first clause (after the license's comments; a clause with braces is
; a scope below).
(compilation_unit . [(comment) (block_comment)]* . (package_clause name: (package_identifier) @package !body))
; Chained clauses, `package com.shop` then `package model`: the second names a scope around the whole file
; (com.shop.model.Cart). A third is left out.
(compilation_unit
  . [(comment) (block_comment)]* . (package_clause !body)
  . [(comment) (block_comment)]* . (package_clause name: (package_identifier) @name !body)) @container.namespace
; `package model { ... }` and `package object shop { ... }`: their definitions are named under them; a package
; object's functions stay functions (com.shop.helper).
(package_clause name: (package_identifier) @name body: (_)) @container.namespace
(package_object name: (identifier) @name) @container.namespace
;
; A companion object, right after or before its class, trait or enum (comments between), is no symbol of its own:
; its members are its class's (`object Cart { def empty() }` beside `class Cart` defines `Cart.empty`), as Java
; sees them.
(_ [(class_definition name: (identifier) @_type) (trait_definition name: (identifier) @_type)
      (enum_definition name: (identifier) @_type)]
  . [(comment) (block_comment)]* . (object_definition name: (identifier) @name) @container
  (#eq? @_type @name))
(_ (object_definition name: (identifier) @name) @container
  . [(comment) (block_comment)]*
  . [(class_definition name: (identifier) @_type) (trait_definition name: (identifier) @_type)
     (enum_definition name: (identifier) @_type)]
  (#eq? @_type @name))
;
; Classes, case classes, traits, objects, Scala 3 enums and their cases with parameters, type aliases.
(class_definition name: (identifier) @name) @definition.class
(trait_definition name: (identifier) @name) @definition.trait
(object_definition name: (identifier) @name) @definition.class
(enum_definition name: (identifier) @name) @definition.enum
(full_enum_case name: (identifier) @name) @definition.class
(type_definition name: (type_identifier) @name) @definition.type
; `def`s with a body and abstract ones (a trait's `def price: Int`).
(function_definition name: (identifier) @name) @definition.function
(function_declaration name: (identifier) @name) @definition.function
; Properties of a class, trait or object and of a file (Scala 3's top-level `val`), not locals: `val total: Int`,
; `var count = 0`, an abstract `val repo: Repo`; a named `given`; a case class's parameters and `val`/`var`
; parameters of other classes; an enum's simple cases (`case Red, Green`).
(template_body [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)] @definition.field)
(template_body [(val_declaration name: (identifier) @name) (var_declaration name: (identifier) @name)] @definition.field)
(compilation_unit [(val_definition pattern: (identifier) @name) (var_definition pattern: (identifier) @name)] @definition.field)
(given_definition name: (identifier) @name) @definition.field
(class_definition "case" class_parameters: (class_parameters (class_parameter name: (identifier) @name) @definition.field))
(class_parameter ["val" "var"] name: (identifier) @name) @definition.field
(simple_enum_case name: (identifier) @name) @definition.constant
;
; Imports, by their whole path: the grammar writes a path as names side by side in its `path` field, so the
; prefix is the name before the last, and the names before it are read with it: `import com.shop.Cart`; `import
; com.shop.{Cart, Order => O}` each selector, by the name it binds; `import com.shop.Cart._` (or `.*`) the object or
; package itself; `import a.B, c.D` each path.
(import_declaration (identifier) @import_prefix . (identifier) @import .)
(import_declaration (identifier) @import_prefix . (identifier) @import . ",")
(import_declaration . (identifier) @import .)
(import_declaration . (identifier) @import . (namespace_wildcard))
(import_declaration (identifier) @import_prefix . (identifier) @import . (namespace_wildcard))
(import_declaration (identifier) @import_prefix . (namespace_selectors (identifier) @import))
(import_declaration (identifier) @import_prefix .
  (namespace_selectors [(arrow_renamed_identifier name: (identifier) @import alias: (identifier) @alias)
                        (as_renamed_identifier name: (identifier) @import alias: (identifier) @alias)]))
;
; Calls: `helper(1)`, `cart.add(1)`, `Cart.empty()`, `parse[Int](s)`, `xs.map[Int](f)`, `route { ... }`; a curried
; call's first argument list is its call. `new Cart()` refers to the class.
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (identifier) @name)) @reference.call
(call_expression function: (generic_function function: (field_expression field: (identifier) @name))) @reference.call
(instance_expression [(type_identifier) @name (generic_type type: (type_identifier) @name)
                      (stable_type_identifier (type_identifier) @name .)]) @reference.class
;
; `class Cart extends Base(1) with Priced[Int] with p.Taxed`: the class inherits each type it extends.
; (The grammar's `type` field names only the first of them: each is matched by its node.)
(extends_clause [(type_identifier) @name
                 (generic_type type: [(type_identifier) @name (stable_type_identifier (type_identifier) @name .)])
                 (stable_type_identifier (type_identifier) @name .)]) @reference.implementation
