; JavaScript's own (TypeScript, which reads tags.scm, names these nodes otherwise: its tags.scm): a class's field
; whose value is a function (`handleClick = () => {...}`, a React component's handler bound to its instance) is a
; method of the class.
(field_definition property: (property_identifier) @name value: [(arrow_function) (function_expression)]) @definition.method
