; Names start at the namespace, block-scoped or file-scoped (Shop.Orders.Order); a namespace nested in another
; names what is inside it without being a symbol (Shop { Orders { Order } } is Shop.Orders.Order).
(compilation_unit (namespace_declaration name: [(qualified_name) (identifier)] @package) @namespace)
(file_scoped_namespace_declaration name: [(qualified_name) (identifier)] @package) @namespace
(declaration_list (namespace_declaration name: [(qualified_name) (identifier)] @name) @container)
; using directives import a namespace or, with `static` or an alias, a type (`using Alias = Shop.Core.Cart;`).
(using_directive (qualified_name) @import)
(using_directive !name (identifier) @import)
(class_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(struct_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(enum_declaration name: (identifier) @name) @definition.class
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(invocation_expression function: (identifier) @name) @reference.call
(invocation_expression function: (member_access_expression name: (identifier) @name)) @reference.call
(object_creation_expression type: (identifier) @name) @reference.class
; Generic calls name their method in a generic_name (`services.AddScoped<IStore>()`, `Make<int>()`); what they are
; called on is the member access's expression.
(invocation_expression function: (generic_name . (identifier) @name)) @reference.call
(invocation_expression function: (member_access_expression expression: (_) @receiver name: (generic_name . (identifier) @name))) @reference.call
; `new Ledger<int>()`, `new Shop.Core.Money()`, `new Shop.Core.Ledger<int>()`: the type's own name.
(object_creation_expression type: [(generic_name . (identifier) @name) (qualified_name name: [(identifier) @name (generic_name . (identifier) @name)])]) @reference.class
; `class Cart : Priced, IThing`: the type inherits its base class and interfaces.
(base_list [(identifier) @name (generic_name (identifier) @name) (qualified_name name: (identifier) @name)]) @reference.implementation
; Members that are no methods: properties (a record's positional ones too), constants, delegates, local functions.
(property_declaration name: (identifier) @name) @definition.field
(record_declaration (parameter_list (parameter name: (identifier) @name) @definition.field))
(field_declaration (modifier) @_const (variable_declaration (variable_declarator name: (identifier) @name)) (#eq? @_const "const")) @definition.constant
(delegate_declaration name: (identifier) @name) @definition.type
(local_function_statement name: (identifier) @name) @definition.function
