(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
; A struct, union or enum tag is the file's wherever it is declared (inside a typedef or another struct).
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class @global
(union_specifier name: (type_identifier) @name body: (_)) @definition.class @global
(enum_specifier name: (type_identifier) @name body: (_)) @definition.class @global
; A typedef names a type, and the struct it declares when that has no tag (`typedef struct {...} jv;`); one that
; only repeats its struct's tag (`typedef struct jv_refcnt {...} jv_refcnt;`) is that struct.
(type_definition type: (_ !body) declarator: (type_identifier) @name) @definition.type
(type_definition type: (_ !name body: (_)) declarator: (type_identifier) @name) @definition.type
(type_definition type: (_ name: (_) @tag body: (_)) declarator: (type_identifier) @name (#not-eq? @name @tag)) @definition.type
(type_definition
  declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(preproc_include path: (string_literal (string_content) @import))
; A function-like macro is called as a function is (`jv_array_foreach(a, i, x)`, `EXPECT_EQ(a, b)`); it knows
; no namespace.
(preproc_function_def name: (identifier) @name) @definition.macro @global
