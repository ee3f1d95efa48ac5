(method_declaration name: (identifier) @name (#eq? @name "Main")) @main
; ASP.NET: [HttpGet("path")] on an action
(method_declaration
  (attribute_list (attribute name: (identifier) @method (attribute_argument_list (attribute_argument (string_literal) @path))))
  (#match? @method "^Http(Get|Post|Put|Patch|Delete)$")) @route.aspnet
