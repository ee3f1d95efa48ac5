; A method is named under its receiver's type: pkg.Type.Method.
(method_declaration
  receiver: (parameter_list
    (parameter_declaration type: [(pointer_type (type_identifier) @receiver) (type_identifier) @receiver
                                  (pointer_type (generic_type type: (type_identifier) @receiver))]))
  name: (field_identifier) @name) @definition.method
; An imported package: resolved to the folder whose path ends the import path; the name the file gives it, if any
; (`del "example.com/tool/cmd/remove"`: `del.NewCmdRemove()` calls that package's function).
(import_spec path: (interpreted_string_literal (interpreted_string_literal_content) @import))
(import_spec name: (package_identifier) @alias path: (interpreted_string_literal (interpreted_string_literal_content) @import))
