; A script run as a program: a file that starts with a Lua hash-bang (`#!/usr/bin/env lua`, luajit, OpenResty's
; `resty`), named by its file; the code written in it is the handler.
(chunk . (hash_bang_line) @_bang (#match? @_bang "\\b(lua|luajit|resty|texlua)[0-9.]*\\b")) @main
; ... and a main.lua without one (`lua main.lua`, a LÖVE game), named by its folder (framework_files in language.toml).
((chunk . (_) @_first) @command.main @block (#not-match? @_first "^#!"))
; LÖVE: the callbacks the engine calls in a game's main.lua (`function love.load()`, `love.update`, `love.draw`),
; each the program's entry.
(function_declaration
  name: (dot_index_expression table: (identifier) @_love field: (identifier) @_callback)
  (#eq? @_love "love") (#match? @_callback "^(load|update|draw)$")) @command.love
;
; Lapis (OpenResty): app:get("/users/:id", function(self) ... end), app:match("/x", handler), a named route
; app:match("user", "/users/:id", handler), app:post(...) on an app object, a path from the root, the handler
; given by name or written there, in a file that requires lapis
(function_call name: (identifier) @_require arguments: (arguments . (string content: (string_content) @uses.lapis))
  (#eq? @_require "require") (#match? @uses.lapis "^lapis(\\.|$)"))
(function_call
  name: (method_index_expression table: (identifier) @app method: (identifier) @method)
  arguments: (arguments . (string content: (string_content) @path))
  (#match? @method "^(get|post|put|patch|delete|match)$") (#match? @path "^/")
  (#set! receiver "^(app|application|api|router|[A-Za-z_][A-Za-z0-9_]*(App|_app|Application))$")
  (#set! requires "lapis")) @route.lapis
(function_call
  name: (method_index_expression table: (identifier) @app method: (identifier) @method)
  arguments: (arguments . (string content: (string_content) @path) . [(identifier) @handler (dot_index_expression) @handler (function_definition) @block (function_call) @block] .)
  (#match? @method "^(get|post|put|patch|delete|match)$") (#match? @path "^/")
  (#set! receiver "^(app|application|api|router|[A-Za-z_][A-Za-z0-9_]*(App|_app|Application))$")
  (#set! requires "lapis")) @route.lapis
(function_call
  name: (method_index_expression table: (identifier) @app method: (identifier) @method)
  arguments: (arguments . (string) . (string content: (string_content) @path) . [(identifier) @handler (dot_index_expression) @handler (function_definition) @block (function_call) @block] .)
  (#match? @method "^(get|post|put|patch|delete|match)$") (#match? @path "^/")
  (#set! receiver "^(app|application|api|router|[A-Za-z_][A-Za-z0-9_]*(App|_app|Application))$")
  (#set! requires "lapis")) @route.lapis
;
; Kong's Admin API (Lapis underneath): a routes module's table of paths, each a table of methods and their
; handlers, written there or made by a call: `return { ["/consumers/:consumers"] = { GET = function(self, db,
; helpers) ... end, DELETE = endpoints.delete_entity_endpoint(schema) } }`
(field
  name: (string content: (string_content) @path)
  value: (table_constructor (field name: (identifier) @method
    value: [(function_definition) @block (function_call) @handler (identifier) @handler (dot_index_expression) @handler]) @route.kong)
  (#match? @path "^/") (#match? @method "^(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD)$"))
;
; Neovim plugins: a user command, vim.api.nvim_create_user_command("Format", function(opts) ... end, {}) or with
; the function's name (`api.nvim_create_user_command` on a local `api = vim.api` too), and a buffer's own
; (nvim_buf_create_user_command(bufnr, "Name", fn, {})). Keymaps are not commands.
(function_call
  name: (dot_index_expression field: (identifier) @_create)
  arguments: (arguments . (string content: (string_content) @path) . [(identifier) @handler (dot_index_expression) @handler (function_definition) @block (string) @handler])
  (#eq? @_create "nvim_create_user_command")) @command.neovim
(function_call
  name: (dot_index_expression field: (identifier) @_create)
  arguments: (arguments . (_) . (string content: (string_content) @path) . [(identifier) @handler (dot_index_expression) @handler (function_definition) @block (string) @handler])
  (#eq? @_create "nvim_buf_create_user_command")) @command.neovim
