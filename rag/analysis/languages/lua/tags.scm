; Modules a file loads: `require("app.cart")`, `require "app.cart"`, `require('app.cart').total()`.
(function_call name: (identifier) @_require arguments: (arguments . (string content: (string_content) @import) .)
  (#eq? @_require "require"))
; ... and the name it binds the module to: `local cart = require("app.cart")`.
(assignment_statement
  (variable_list . name: (identifier) @alias .)
  (expression_list . value: (function_call name: (identifier) @_require
    arguments: (arguments . (string content: (string_content) @import) .)) .)
  (#eq? @_require "require"))
; A class by the metatable convention: a table bound to a capitalised name at the top of the file (`local Cart = {}`,
; `Cart = {}`), or what makes one (`local Cart = setmetatable({}, Base)`, middleclass's `class("Cart")`, classic's
; `Base:extend()`), whose functions are named under it (below). Not the module table `M`, a constant
; (`local DEFAULTS = {...}`) nor a module a file requires (`local Cart = require("app.cart")`).
(chunk (variable_declaration (assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (table_constructor) .)))
  @definition.class
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$"))
(chunk (assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (table_constructor) .))
  @definition.class
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$"))
(chunk (variable_declaration (assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (function_call name: (identifier) @_make) .)))
  @definition.class
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$") (#match? @_make "^(setmetatable|class)$"))
(chunk (variable_declaration (assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (function_call name: (method_index_expression method: (identifier) @_make)) .)))
  @definition.class
  (#match? @name "^[A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*$") (#match? @_make "^(extend|subclass)$"))
; A function defined on a class's table is named under it (its `@receiver`): `function Cart.new(items)`,
; `function Cart:total()` (a method), `Cart.count = function(self) ... end`; and a LÖVE callback under the engine's
; table (`function love.load()`). A function on the module table or any other (`function M.setup()`,
; `function utils.setup()`) is the module's own, named alone below, as callers write `require("app.utils").setup()`.
(function_declaration
  name: (dot_index_expression table: (identifier) @receiver field: (identifier) @name)
  (#match? @receiver "^([A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*|love)$")) @definition.function
(function_declaration
  name: (method_index_expression table: (identifier) @receiver method: (identifier) @name)
  (#match? @receiver "^([A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*|love)$")) @definition.method
(assignment_statement
  (variable_list . name: (dot_index_expression table: (identifier) @receiver field: (identifier) @name) .)
  (expression_list . value: (function_definition) .)
  (#match? @receiver "^([A-Z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*|love)$")) @definition.function
; Functions: `local function helper()`, `function helper()`, `function M.setup()`, `function M:method()`,
; `M.setup = function() end`, `local helper = function() end`, and a table's field `{ run = function() end }`
; (the field is the function's node: a table of several is not one function), but for a route's handler written
; in a table of methods (Kong's `["/consumers"] = { GET = function(self) ... end }`: entrypoints.scm).
(function_declaration
  name: [(identifier) @name (dot_index_expression field: (identifier) @name)]) @definition.function
(function_declaration name: (method_index_expression method: (identifier) @name)) @definition.method
(assignment_statement
  (variable_list . name: [(identifier) @name (dot_index_expression field: (identifier) @name)] .)
  (expression_list . value: (function_definition) .)) @definition.function
(field name: (identifier) @name value: (function_definition)
  (#not-match? @name "^(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD)$")) @definition.function
; Calls: a bare name (`helper()`; a parameter or a local bound to the standard library's function is read, not
; called: locals.scm), on a table or module (`M.f()`, `utils.f()`, `vim.api.f()`), on an object (`obj:method()`,
; `self:method()`).
(function_call name: (identifier) @name @reference.call)
(function_call name: (dot_index_expression field: (identifier) @name)) @reference.call
(function_call name: (method_index_expression method: (identifier) @name)) @reference.call
