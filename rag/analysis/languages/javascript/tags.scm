; ES modules and CommonJS: the module a file imports (resolved by path when it is relative).
(import_statement source: (string (string_fragment) @import))
(export_statement source: (string (string_fragment) @import))
(call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import)) (#eq? @_require "require"))
; ... and the name it is bound to, when one names the module's default export: `import users from './users'`,
; `const users = require('./users')` (a router mounted by that name: entrypoints.scm)
(import_statement (import_clause . (identifier) @alias) source: (string (string_fragment) @import))
(variable_declarator name: (identifier) @alias
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import)))
  (#eq? @_require "require"))
; ... and each name it binds from the module, or passes on from it (`export * from`: the member `*`):
; a bare call of the name is the call of what the module exports by that name.
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.member alias: (_)? @alias)))
  source: (string (string_fragment) @import))
(export_statement (export_clause (export_specifier name: (_) @import.reexport alias: (_)? @alias))
  source: (string (string_fragment) @import))
(export_statement "*" @import.reexport source: (string (string_fragment) @import))
; ... and a module imported or passed on whole under a name (the member `*` bound to it): `import * as fmt from
; './format'`, `export * as fmt from './format'`
(import_statement (import_clause (namespace_import "*" @import.member (identifier) @alias)) source: (string (string_fragment) @import))
(export_statement (namespace_export "*" @import.reexport (identifier) @alias) source: (string (string_fragment) @import))
; The module's default export (its member `default`), and a default import of another's.
(export_statement "default"
  declaration: [(function_declaration name: (_) @export.default) (class_declaration name: (_) @export.default)])
(export_statement "default" value: (identifier) @export.default)
; The module's own definitions it exports under a name of its list (`export { helper as default, parse }`).
(export_statement (export_clause (export_specifier name: (_) @export.local alias: (_)? @alias)) !source)
(import_statement (import_clause . (identifier) @import.default) source: (string (string_fragment) @import))
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @import.member)
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import)))
  (#eq? @_require "require"))
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @import.member value: (identifier) @alias))
  value: (call_expression function: (identifier) @_require arguments: (arguments . (string (string_fragment) @import)))
  (#eq? @_require "require"))
; A class's superclass named by an identifier (`class Cart extends Priced`): an inherits edge. TypeScript reads
; this file too, where the heritage's first child is a clause ("extends Priced"), which the match leaves out.
(class_heritage . (_) @name (#match? @name "^[A-Za-z_$][A-Za-z0-9_$]*$")) @reference.implementation
