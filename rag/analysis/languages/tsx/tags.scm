; ES modules and CommonJS: the module a file imports (resolved by path when it is relative).
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import)) (#eq? @_require "require"))
