(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.class
(type_definition declarator: (type_identifier) @name) @definition.type
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(preproc_include path: (string_literal (string_content) @import))
; A function-like macro is called as a function is (`jv_array_foreach(a, i, x)`, `EXPECT_EQ(a, b)`); it knows
; no namespace.
(preproc_function_def name: (identifier) @name) @definition.macro @global
