; Names start at the namespace (Slim\Routing\RouteResolver is Slim.Routing.RouteResolver).
(namespace_definition name: (namespace_name) @package) @namespace
; `use App\Cart\Cart;`, `use function App\helpers\f;`, and each member of a group (`use App\Models\{User, Post};`).
(namespace_use_declaration (namespace_use_clause . [(qualified_name) (name)] @import))
(namespace_use_declaration (namespace_name) @import_prefix body: (namespace_use_group (namespace_use_clause . [(qualified_name) (name)] @import)))
; `class Cart extends Priced`: the class inherits it (interfaces come from the grammar's own tags).
(base_clause [(name) @name (qualified_name (name) @name .)]) @reference.implementation
; `use HasAttributes, Concerns\HasEvents;` in a class body: the class takes the trait's methods.
(use_declaration [(name) @name (qualified_name (name) @name .)]) @reference.implementation
