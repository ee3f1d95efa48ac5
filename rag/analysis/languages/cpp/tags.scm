; A namespace names what is inside it; it is no symbol, and its functions are no methods.
(namespace_definition name: (namespace_identifier) @name body: (_)) @container.namespace
(namespace_definition name: (nested_namespace_specifier) @name body: (_)) @container.namespace
(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.class
(enum_specifier name: (type_identifier) @name body: (_)) @definition.class
(union_specifier name: (type_identifier) @name body: (_)) @definition.class
; A specialisation (`template <> struct formatter<date> {...}`) is named by its template.
(class_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class
(struct_specifier name: (template_type name: (type_identifier) @name) body: (_)) @definition.class
; An export macro before a class's name (`class FMT_API file {...}`) makes the grammar read a function named
; like the class whose type is a class named like the macro.
(function_definition type: [(class_specifier name: (type_identifier)) (struct_specifier name: (type_identifier))]
  declarator: (identifier) @name body: (_)) @definition.class
; A typedef names a type, and the struct it declares when that has no tag; `typedef struct node {...} node;` is the struct.
(type_definition type: (_ !body) declarator: (type_identifier) @name) @definition.type
(type_definition type: (_ !name body: (_)) declarator: (type_identifier) @name) @definition.type
(type_definition
  declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method
(function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
; ... and a method defined in its class that returns a reference or a pointer (`const std::string& name() const {...}`)
(function_definition declarator: (reference_declarator (function_declarator declarator: (field_identifier) @name))) @definition.method
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))) @definition.method
; Operators (`operator==`, `operator<<`) and destructors (`~file`), in their class or free.
(function_definition declarator: (function_declarator declarator: [(operator_name) (destructor_name)] @name)) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: (operator_name) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (operator_name) @name))) @definition.function
; Cart::total defined outside its class is named under the class. Where macros come before the return
; type (`simdjson_inline error_code document::get()`), the grammar leaves the class in an ERROR node just
; before `::`: its last name is the class (this pattern first, so it wins over the one below).
(function_definition declarator: (function_declarator
  declarator: (qualified_identifier (ERROR (identifier) @receiver .) . name: (identifier) @name))) @definition.method
(function_definition declarator: (function_declarator
  declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: [(identifier) (operator_name) (destructor_name)] @name))) @definition.method
(function_definition declarator: (reference_declarator (function_declarator
  declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: [(identifier) (operator_name)] @name)))) @definition.method
(function_definition declarator: (pointer_declarator declarator: (function_declarator
  declarator: (qualified_identifier scope: (namespace_identifier) @receiver name: [(identifier) (operator_name)] @name)))) @definition.method
; A member of a class template defined outside it (`template <typename T> void buffer<T>::grow()`).
(function_definition declarator: (function_declarator
  declarator: (qualified_identifier scope: (template_type name: (type_identifier) @receiver) name: [(identifier) (operator_name) (destructor_name)] @name))) @definition.method
(call_expression function: (identifier) @name) @reference.call
(call_expression function: (field_expression field: (field_identifier) @name)) @reference.call
(call_expression function: (qualified_identifier name: (identifier) @name)) @reference.call
(base_class_clause (type_identifier) @name) @reference.implementation
(preproc_include path: (string_literal (string_content) @import))
; A function-like macro is called as a function is (`jv_array_foreach(a, i, x)`, `EXPECT_EQ(a, b)`); it knows
; no namespace.
(preproc_function_def name: (identifier) @name) @definition.macro @global
