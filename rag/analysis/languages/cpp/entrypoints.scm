(function_definition declarator: (function_declarator declarator: (identifier) @name) (#eq? @name "main")) @main
;
; Crow: CROW_ROUTE(app, "/add/<int>")([](int a) { ... }) (CROW_BP_ROUTE for a blueprint's), its methods those
; .methods(crow::HTTPMethod::Post) names; the lambda its handler
(call_expression
  function: (call_expression function: (identifier) @_crow arguments: (argument_list (_) . (string_literal) @path .))
  arguments: (argument_list . (lambda_expression) @block)
  (#match? @_crow "^CROW_(BP_)?ROUTE$")) @route.crow
(call_expression
  function: (call_expression
    function: (field_expression
      argument: (call_expression function: (identifier) @_crow arguments: (argument_list (_) . (string_literal) @path .))
      field: (field_identifier) @_methods)
    arguments: (argument_list [(qualified_identifier name: (qualified_identifier name: (identifier) @method))
                               (qualified_identifier name: (identifier) @method)]))
  arguments: (argument_list . (lambda_expression) @block)
  (#match? @_crow "^CROW_(BP_)?ROUTE$") (#eq? @_methods "methods")) @route.crow
; cpp-httplib, in a file that includes httplib.h: svr.Get("/hi", handler) or the lambda written there
(preproc_include path: [(string_literal) (system_lib_string)] @uses.httplib (#match? @uses.httplib "httplib\\.h"))
(call_expression
  function: (field_expression field: (field_identifier) @method)
  arguments: (argument_list . (string_literal) @path . [(identifier) @handler (lambda_expression) @block] .)
  (#match? @method "^(Get|Post|Put|Patch|Delete|Options)$") (#match? @path "^\"/")
  (#set! requires "httplib")) @route.httplib
