(function_definition declarator: (function_declarator declarator: (identifier) @name) (#eq? @name "main")) @main
