; The names a bare call may read rather than call a function of the repository by: a parameter (`callback()`)
; and a local bound to a function of the standard library's tables (`local insert = table.insert`,
; `local fmt = string.format`, OpenResty's `local say = ngx.say`), in the function or file that binds it.
[(chunk) (function_declaration) (function_definition)] @local.scope
(parameters (identifier) @local.definition)
(variable_declaration (assignment_statement
  (variable_list name: (identifier) @local.definition)
  (expression_list value: (dot_index_expression table: (identifier) @_library)))
  (#match? @_library "^(table|string|math|os|io|coroutine|debug|utf8|bit|bit32|jit|ngx|vim)$"))
