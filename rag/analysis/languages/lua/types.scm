; A local bound to a new object of a class's table (`local cart = Cart.new(items)`, `Cart:new()`,
; `setmetatable({}, Cart)`): a call on it (`cart:total()`) is resolved among that table's functions.
(assignment_statement
  (variable_list . name: (identifier) @variable .)
  (expression_list . value: (function_call
    name: [(dot_index_expression table: (identifier) @type field: (identifier) @_new)
           (method_index_expression table: (identifier) @type method: (identifier) @_new)]) .)
  (#eq? @_new "new"))
(assignment_statement
  (variable_list . name: (identifier) @variable .)
  (expression_list . value: (function_call name: (identifier) @_set arguments: (arguments . (_) . (identifier) @type .)) .)
  (#eq? @_set "setmetatable"))
; A local bound to a module (`local utils = require("telescope.utils")`, `local u = require "app.utils"`): a call on
; it (`utils.path_tail(p)`) is of that module's functions, whose names are under its file (the last name of the
; path). Not a class's name (`local Cart = require("app.cart")`), whose calls `Cart.new()` find the class's table.
(assignment_statement
  (variable_list . name: (identifier) @variable .)
  (expression_list . value: (function_call name: (identifier) @_require
    arguments: (arguments . (string content: (string_content) @type) .)) .)
  (#eq? @_require "require") (#not-match? @variable "^[A-Z][A-Za-z0-9_]*[a-z]"))
