; Swift has no package declaration: a module is a target's folder (Sources/App), whose files see each other's
; names without imports, so names start at the file's folder (unit = "directory").
;
; Types: class, struct, enum and actor (`declaration_kind`), and protocols.
(class_declaration declaration_kind: ["class" "struct" "enum" "actor"] name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
; `extension Cart: Codable { func encode() }` is no symbol of its own: its members are the extended type's
; (Cart.encode), and so are the protocols it adds (below). `extension Shop.Cart` names the nested type whole;
; `extension Array<Int>` names Array.
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) .) @name) @container
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @name . (type_arguments) .)) @container
; Functions; inside a type (or an extension) they are its methods. A protocol's requirements and a type's
; initializers (`init(name:)`, the method `init`) too.
(function_declaration name: (simple_identifier) @name) @definition.function
(protocol_function_declaration name: (simple_identifier) @name) @definition.method
(init_declaration "init" @name) @definition.method
; Properties of a type or a file (`let items: [Item]`, `var body: some View { ... }`, `static let shared = Cart()`),
; a protocol's required ones (`var id: String { get }`), not locals; type aliases.
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(enum_class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field
(typealias_declaration name: (type_identifier) @name) @definition.type
;
; Calls: a bare name (`helper()`, an initializer `Cart(items: [])`, `run { ... }`), or a name called on something
; (`cart.add(x)`, `self.add(x)`, `Cart.make()`, `store?.save()`, `self.repo.save()`), whose receiver is what stands
; before the dot. A subscript is read as a call with brackets (`headers[.accept]`, `self.storage[key]`): no call.
(call_expression . (simple_identifier) @name (call_suffix [(value_arguments "(") (lambda_literal)])) @reference.call
(call_expression . (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))
  (call_suffix [(value_arguments "(") (lambda_literal)])) @reference.call
; A generic type's initializer: `Box<Int>()`.
(constructor_expression constructed_type: (user_type (type_identifier) @name)) @reference.class
; `class Cart: Base, Priced` and `extension Cart: Codable`: the type inherits its superclass and protocols
; (`Base<Int>` and `Shop.Base` by their last name).
(inheritance_specifier inherits_from: (user_type (type_identifier) @name .)) @reference.implementation
(inheritance_specifier inherits_from: (user_type (type_identifier) @name . (type_arguments) .)) @reference.implementation
; `import Foundation`, `import struct Shop.Cart`: a module (a library's, or a target of the package).
(import_declaration (identifier) @import)
