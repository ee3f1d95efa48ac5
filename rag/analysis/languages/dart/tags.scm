; Dart: the grammar's own tags query leaves most members unnamed (`(method_signature) @definition.method`);
; this one names them, and what the index needs besides.
;
; Types: classes (`abstract`, `sealed`, `interface` ...), mixins, enums, extension types and typedefs.
(class_definition name: (identifier) @name) @definition.class
(mixin_declaration (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.enum
(extension_type_declaration name: (identifier) @name) @definition.class
(type_alias "typedef" . (type_identifier) @name) @definition.type
; An extension is a symbol of its own (`extension CartX on Cart`), and its members are members of the type it
; extends: its body names them after it (`CartX.Cart.size`), so `cart.size` on a `Cart` finds them.
(extension_declaration name: (identifier) @name) @definition.class
(extension_declaration class: (type_identifier) @name body: (extension_body) @container)
;
; Functions and methods. The grammar puts a function's signature and its body side by side, not in one node:
; the signature is declared (`overload_declarations` in language.toml) and the body is the definition, so one
; symbol runs from the signature (its doc comment, its first line) to the end of the body, and the calls in
; the body are the function's.
; A function at the top of the file, a getter or a setter: `void main() { }`, `int get count => 1;`.
(program (function_signature name: (identifier) @name) @definition.function)
(program (function_signature name: (identifier) @name) . (function_body) @definition.function)
(program (getter_signature name: (identifier) @name) @definition.function)
(program (getter_signature name: (identifier) @name) . (function_body) @definition.function)
(program (setter_signature name: (identifier) @name) @definition.function)
(program (setter_signature name: (identifier) @name) . (function_body) @definition.function)
; A member with a body: a method, getter, setter or constructor (`int add(Item item) { }`, `int get total =>`,
; `Cart.empty() { }`, `factory Cart.fromJson(Map json) =>`). A constructor is named by its last name:
; `Cart(...)` is `Cart.Cart`, `Cart.empty()` is `Cart.empty` (called as `Cart.empty()`).
(method_signature
  [(function_signature name: (identifier) @name)
   (getter_signature name: (identifier) @name)
   (setter_signature name: (identifier) @name)]) @definition.method
(_
  (method_signature
    [(function_signature name: (identifier) @name)
     (getter_signature name: (identifier) @name)
     (setter_signature name: (identifier) @name)])
  . (function_body) @definition.method)
(method_signature
  [(constructor_signature (identifier) @name . (formal_parameter_list))
   (factory_constructor_signature (identifier) @name . (formal_parameter_list))
   (constant_constructor_signature (identifier) @name . (formal_parameter_list))]) @definition.method
(_
  (method_signature
    [(constructor_signature (identifier) @name . (formal_parameter_list))
     (factory_constructor_signature (identifier) @name . (formal_parameter_list))
     (constant_constructor_signature (identifier) @name . (formal_parameter_list))])
  . (function_body) @definition.method)
; ... and one without a body: an abstract method or getter (`void close();`), a constructor that only
; initializes (`Cart(this.items);`, `const Cart._internal();`, `factory Cart() = _Cart;`).
(declaration
  [(function_signature name: (identifier) @name)
   (getter_signature name: (identifier) @name)
   (setter_signature name: (identifier) @name)
   (constructor_signature (identifier) @name . (formal_parameter_list))
   (constant_constructor_signature (identifier) @name . (formal_parameter_list))
   (redirecting_factory_constructor_signature (identifier) @name . (formal_parameter_list))]) @definition.method
; A function declared in a function body (`void visit(Node n) { }`): one node holds its signature and body.
(lambda_expression parameters: (function_signature name: (identifier) @name)) @definition.function
;
; Fields of a class, mixin, enum or extension (`final List<Item> items;`, `static const label = 'cart';`),
; an enum's values (`red`), and the variables at the top of a file (`const maxItems = 10;`), not locals.
(declaration (initialized_identifier_list (initialized_identifier . (identifier) @name))) @definition.field
(declaration (static_final_declaration_list (static_final_declaration . (identifier) @name))) @definition.field
(enum_constant name: (identifier) @name) @definition.field
(program (static_final_declaration_list (static_final_declaration . (identifier) @name) @definition.field))
(program (initialized_identifier_list (initialized_identifier . (identifier) @name) @definition.field))
;
; Imports, exports and parts: the file they name (`import 'src/cart.dart';`, `import 'package:shop/cart.dart'
; as shop;`, `export 'src/item.dart';`, `part 'cart.g.dart';`).
(import_specification (configurable_uri (uri (string_literal) @import)))
(import_specification (configurable_uri (uri (string_literal) @import)) . (identifier) @alias)
(library_export (configurable_uri (uri (string_literal) @import)))
(part_directive (uri (string_literal) @import))
;
; `class Cart extends Base with Priced implements Comparable<Cart>`, `mixin Priced on Base`: the type
; inherits its superclass, mixins, interfaces and a mixin's required supertypes.
(superclass (type_identifier) @name) @reference.implementation
(mixins (type_identifier) @name) @reference.implementation
(interfaces (type_identifier) @name) @reference.implementation
(mixin_declaration (type_identifier) @name) @reference.implementation
;
; Calls. The grammar writes a call as a name followed by selectors, side by side in whatever holds them:
; `check(item)` is (identifier) (selector (argument_part)). A bare call of a function, of a method of the
; object's own class, or of a class (a constructor: `Cart()`).
(_ (identifier) @name @reference.call . (selector (argument_part)))
; A call on something: `cart.add(item)`, `Cart.empty()`, `this.check(x)`, `cart?.add(x)`, `load().then(f)`.
; The name is its selector (`.add`, less the dot), so what stands before it is what it is called on.
(_ (_) @_object
  . (selector [(unconditional_assignable_selector) (conditional_assignable_selector)]) @name
  . (selector (argument_part))
  (#not-eq? @_object "!")
  (#set! strip "^[?.]+")) @reference.call
; ... on a name asserted not null, `cart!.add(item)`: called on the name; on anything longer
; (`cart.items!.add(item)`), on the value of the expression before the `!`.
(_ (identifier) @receiver
  . (selector "!")
  . (selector [(unconditional_assignable_selector) (conditional_assignable_selector)]) @name
  . (selector (argument_part))
  (#set! strip "^[?.]+")) @reference.call
(_ (_) @_object
  . (selector "!")
  . (selector [(unconditional_assignable_selector) (conditional_assignable_selector)]) @name
  . (selector (argument_part))
  (#not-match? @_object "^[A-Za-z_$][A-Za-z0-9_$]*$")
  (#set! strip "^[?.]+")) @reference.call
; `super.add(item)`: the selector stands alone after `super`.
(_ (super) . (unconditional_assignable_selector) @name
  . (selector (argument_part))
  (#set! strip "^[?.]+")) @reference.call
; A cascade's call: `list..add(1)..clear()`, `Router()..get('/', root)`; the first is called on what stands
; before the cascade. The name is the section, less its dots and arguments.
(cascade_section (cascade_selector (identifier)) @reference.call . (argument_part)
  (#set! strip "^[?.]+|[(<][\\s\\S]*$")) @name
; `new Cart()`, `const Cart()`: the class's constructor; `new Cart.empty()`, `const Cart.empty()`: that
; named constructor, called on the class.
(new_expression (type_identifier) @name @reference.call . [(arguments) (type_arguments)])
(const_object_expression (type_identifier) @name @reference.call . [(arguments) (type_arguments)])
(new_expression (type_identifier) . (identifier) @name) @reference.call
(const_object_expression (type_identifier) . (identifier) @name) @reference.call
