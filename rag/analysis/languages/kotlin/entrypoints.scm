(function_declaration name: (identifier) @name (#eq? @name "main")) @main
