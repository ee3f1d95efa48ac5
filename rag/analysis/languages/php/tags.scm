; Names start at the namespace (Slim\Routing\RouteResolver is Slim.Routing.RouteResolver).
(namespace_definition name: (namespace_name) @package) @namespace
; `use App\Cart\Cart;`, `use function App\helpers\f;`, and each member of a group (`use App\Models\{User, Post};`).
; `use App\Cart\Cart as Basket;` is imported by the name Basket (`@alias`).
(namespace_use_declaration (namespace_use_clause . [(qualified_name) (name)] @import !alias))
(namespace_use_declaration (namespace_use_clause . [(qualified_name) (name)] @import alias: (name) @alias))
(namespace_use_declaration (namespace_name) @import_prefix body: (namespace_use_group (namespace_use_clause . [(qualified_name) (name)] @import !alias)))
(namespace_use_declaration (namespace_name) @import_prefix
  body: (namespace_use_group (namespace_use_clause . [(qualified_name) (name)] @import alias: (name) @alias)))
; `class Cart extends Priced`: the class inherits it (interfaces come from the grammar's own tags).
(base_clause [(name) @name (qualified_name (name) @name .)]) @reference.implementation
; `use HasAttributes, Concerns\HasEvents;` in a class body: the class takes the trait's methods.
(use_declaration [(name) @name (qualified_name (name) @name .)]) @reference.implementation
; What the grammar's own tags leave out: `enum Suit: string { case Hearts = 'H'; ... }` and its cases, a call of a
; function by its plain name (`collect($items)`), and `new Cart()` of a class by its plain name.
(enum_declaration name: (name) @name) @definition.enum
(enum_case name: (name) @name) @definition.constant
(function_call_expression function: (name) @name) @reference.call
(object_creation_expression (name) @name) @reference.class
