; Locals the grammar's own locals query leaves out (it is read after this one): the exception a
; `rescue => e` binds and the variable of a `for` loop.
(exception_variable (identifier) @local.definition)
(for . (identifier) @local.definition)
