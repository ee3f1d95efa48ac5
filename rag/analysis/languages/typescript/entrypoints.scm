; TypeScript reads JavaScript's entrypoints.scm too (language.toml: extends).
; NestJS: @Get(':id') on a method of a class under @Controller('cats')
(class_body
  (decorator (call_expression function: (identifier) @method arguments: (arguments . (string (string_fragment) @path))))
  .
  (decorator)*
  .
  (method_definition) @route.nestjs
  (#match? @method "^(Get|Post|Put|Patch|Delete|Options|Head|All)$"))
(class_body
  (decorator (call_expression function: (identifier) @method arguments: (arguments)))
  .
  (decorator)*
  .
  (method_definition) @route.nestjs
  (#match? @method "^(Get|Post|Put|Patch|Delete|Options|Head|All)$"))
(export_statement
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (string (string_fragment) @prefix))))
  (#eq? @_c "Controller")) @prefixed
(class_declaration
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (string (string_fragment) @prefix))))
  (#eq? @_c "Controller")) @prefixed
; ... or its options: @Controller({ path: 'cats', version: '1' })
(export_statement
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (object
    (pair key: (property_identifier) @_path value: (string (string_fragment) @prefix))))))
  (#eq? @_c "Controller") (#eq? @_path "path")) @prefixed
(class_declaration
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (object
    (pair key: (property_identifier) @_path value: (string (string_fragment) @prefix))))))
  (#eq? @_c "Controller") (#eq? @_path "path")) @prefixed
