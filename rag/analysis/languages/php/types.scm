; Declared types of names (typed properties, parameters, `$x = new Cart()`): a call on the name is resolved
; in its type.
(property_declaration type: (_) @type (property_element name: (variable_name) @variable))
(simple_parameter type: (_) @type name: (variable_name) @variable)
; A promoted constructor parameter (`public function __construct(private Bar $bar)`) is a property.
(property_promotion_parameter type: (_) @type name: (variable_name) @field)
(assignment_expression left: (variable_name) @variable right: (object_creation_expression . (name) @type))
