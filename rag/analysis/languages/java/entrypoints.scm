(method_declaration name: (identifier) @name (#eq? @name "main")) @main
; Spring: @GetMapping("/path") on a method
(method_declaration
  (modifiers (annotation name: (identifier) @method arguments: (annotation_argument_list . (string_literal) @path)))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @route.spring
