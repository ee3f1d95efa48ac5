; A namespace names what is inside it; it is no symbol, and its functions are no methods.
(namespace_definition name: (namespace_identifier) @name body: (_)) @container.namespace
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.class
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
; Cart::total defined outside its class is named under the class. Where macros come before the return
; type (`simdjson_inline error_code document::get()`), the grammar leaves the class in an ERROR node just
; before `::`: its last name is the class (this pattern first, so it wins over the one below).
(function_definition declarator: (function_declarator
  declarator: (qualified_identifier (ERROR (identifier) @receiver .) . name: (identifier) @name))) @definition.method
(function_definition declarator: (function_declarator
  declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: (identifier) @name))) @definition.method
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(call_expression function: (qualified_identifier name: (identifier) @name)) @reference.call
(base_class_clause (type_identifier) @name) @reference.implementation
(preproc_include path: (string_literal (string_content) @import))
; A function-like macro is called as a function is (`jv_array_foreach(a, i, x)`, `EXPECT_EQ(a, b)`); it knows
; no namespace.
(preproc_function_def name: (identifier) @name) @definition.macro @global
