(function_declaration name: (identifier) @name (#eq? @name "main")) @main
; net/http, gin, echo, chi: mux.HandleFunc("/path", h), r.GET("/path", h): a path from the root
(call_expression
  function: (selector_expression field: (field_identifier) @method)
  arguments: (argument_list . (interpreted_string_literal) @path)
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|Any|Get|Post|Put|Patch|Delete|HandleFunc|Handle)$")
  (#match? @path "^\"/")) @route.go
; ... with the handler named: r.GET("/path", showOrder)
(call_expression
  function: (selector_expression field: (field_identifier) @method)
  arguments: (argument_list . (interpreted_string_literal) @path . (identifier) @handler)
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|Any|Get|Post|Put|Patch|Delete|HandleFunc|Handle)$")
  (#match? @path "^\"/")) @route.go
; gRPC: pb.RegisterGreeterServer(s, &server{}) serves the Greeter service
(call_expression
  function: (selector_expression field: (field_identifier) @path)
  (#match? @path "^Register[A-Za-z0-9_]+Server$")
  (#set! strip "^Register|Server$")) @route.grpc
(call_expression
  function: (selector_expression field: (field_identifier) @path)
  arguments: (argument_list . (_) . [(unary_expression operand: (composite_literal type: (type_identifier) @handler)) (identifier) @handler])
  (#match? @path "^Register[A-Za-z0-9_]+Server$")
  (#set! strip "^Register|Server$")) @route.grpc
; cobra: &cobra.Command{Use: "serve [flags]", RunE: runServe}
(composite_literal
  type: (qualified_type package: (package_identifier) @_cobra name: (type_identifier) @_command)
  body: (literal_value (keyed_element key: (literal_element (identifier) @_use) value: (literal_element (interpreted_string_literal) @path)))
  (#eq? @_cobra "cobra") (#eq? @_command "Command") (#eq? @_use "Use")) @command.cobra
(composite_literal
  type: (qualified_type package: (package_identifier) @_cobra name: (type_identifier) @_command)
  body: (literal_value
    (keyed_element key: (literal_element (identifier) @_use) value: (literal_element (interpreted_string_literal) @path))
    (keyed_element key: (literal_element (identifier) @_run) value: (literal_element (identifier) @handler)))
  (#eq? @_cobra "cobra") (#eq? @_command "Command") (#eq? @_use "Use") (#match? @_run "^(Run|RunE)$")) @command.cobra
