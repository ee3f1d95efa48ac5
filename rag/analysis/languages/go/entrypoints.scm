(function_declaration name: (identifier) @name (#eq? @name "main")) @main
; net/http, gin, echo, chi: mux.HandleFunc("/path", h), r.GET("/path", h): a path from the root
(call_expression
  function: (selector_expression field: (field_identifier) @method)
  arguments: (argument_list . (interpreted_string_literal) @path)
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|Any|Get|Post|Put|Patch|Delete|HandleFunc|Handle)$")
  (#match? @path "^\"/")) @route.go
