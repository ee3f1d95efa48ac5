(function_item name: (identifier) @name (#eq? @name "main")) @main
; axum: Router::new().route("/path", get(handler))
(call_expression
  function: (field_expression field: (field_identifier) @method)
  arguments: (arguments . (string_literal) @path)
  (#eq? @method "route")
  (#match? @path "^\"/")) @route.axum
