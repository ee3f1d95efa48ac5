; The program: a @main type (a struct, class or enum; @UIApplicationMain, @NSApplicationMain of older apps) runs
; its static main(); a type that declares none has it from what it conforms to (SwiftUI's App, ParsableCommand,
; UIApplicationDelegate): the type is the program.
(class_declaration
  (modifiers (attribute (user_type (type_identifier) @_main)))
  body: [(class_body (function_declaration name: (simple_identifier) @name) @main)
         (enum_class_body (function_declaration name: (simple_identifier) @name) @main)]
  (#match? @_main "^(main|UIApplicationMain|NSApplicationMain)$") (#eq? @name "main"))
(class_declaration
  (modifiers (attribute (user_type (type_identifier) @_main)))
  body: [(class_body) (enum_class_body)] @_body
  (#match? @_main "^(main|UIApplicationMain|NSApplicationMain)$") (#not-match? @_body "func\\s+main\\s*\\(")) @main
; A file of top-level code (a target's main.swift, a script) is the program; other files hold declarations only.
(source_file
  [(call_expression) (try_expression) (await_expression) (assignment) (if_statement) (guard_statement)
   (for_statement) (while_statement) (repeat_while_statement) (switch_statement) (do_statement)]) @main
;
; Vapor and Hummingbird, in a file that imports either: app.get("hello", ":name") { req in ... } or
; app.post("users", use: create), a path of one string per component, on a name (not a client's:
; req.client.get(url) is a request). The route is its arguments: the components before the last are
; prefixes of the call (the first) and of its suffix (the second of three; a fourth's third is left out), the
; last is its path.
(import_declaration (identifier) @uses.vapor (#eq? @uses.vapor "Vapor"))
(import_declaration (identifier) @uses.hummingbird (#eq? @uses.hummingbird "Hummingbird"))
(import_declaration (identifier) @uses.swift_server (#match? @uses.swift_server "^(Vapor|Hummingbird)$"))
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @_method))
  (call_suffix (value_arguments . (value_argument !name value: (line_string_literal) @prefix) . (value_argument !name)))
  (#match? @_method "^(get|post|put|patch|delete|head|options)$") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]")) @prefixed
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @_method))
  (call_suffix (value_arguments . (value_argument !name) . (value_argument !name value: (line_string_literal) @prefix) . (value_argument !name)) ) @prefixed
  (#match? @_method "^(get|post|put|patch|delete|head|options)$") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]"))
; ... the handler a function of the file (use: create, use: self.create) or the closure written there
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @method))
  (call_suffix
    (value_arguments (value_argument !name value: (line_string_literal) @path) .
      (value_argument name: (value_argument_label) @_use value: [(simple_identifier) @handler
        (navigation_expression target: (self_expression) suffix: (navigation_suffix suffix: (simple_identifier) @handler))])) @route.vapor)
  (#match? @method "^(get|post|put|patch|delete|head|options)$") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]") (#eq? @_use "use")
  (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @method))
  (call_suffix (value_arguments (value_argument !name value: (line_string_literal) @path) .) @route.vapor (lambda_literal) @block)
  (#match? @method "^(get|post|put|patch|delete|head|options)$") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]")
  (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
; ... a body's handling before the closure: app.post("upload", body: .collect(maxSize: "1mb")) { req in ... }
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @method))
  (call_suffix
    (value_arguments (value_argument !name value: (line_string_literal) @path) . (value_argument name: (value_argument_label) @_body) .) @route.vapor
    (lambda_literal) @block)
  (#match? @method "^(get|post|put|patch|delete|head|options)$") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]") (#eq? @_body "body")
  (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
; ... and app.on(.POST, "upload", ":name", body: .stream) { req in ... }, app.on(.GET, "x", use: show): the method
; its first argument, the components after it
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @_route))
  (call_suffix (value_arguments . (value_argument) . (value_argument !name value: (line_string_literal) @prefix) . (value_argument !name)))
  (#eq? @_route "on") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]")) @prefixed
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @_route))
  (call_suffix (value_arguments . (value_argument) . (value_argument !name) . (value_argument !name value: (line_string_literal) @prefix) . (value_argument !name))) @prefixed
  (#eq? @_route "on") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]"))
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @_route))
  (call_suffix
    (value_arguments . (value_argument !name value: (prefix_expression target: (simple_identifier) @method))
      (value_argument !name value: (line_string_literal) @path) .
      (value_argument name: (value_argument_label) @_use value: [(simple_identifier) @handler
        (navigation_expression target: (self_expression) suffix: (navigation_suffix suffix: (simple_identifier) @handler))])) @route.vapor)
  (#eq? @_route "on") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]") (#eq? @_use "use")
  (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @_route))
  (call_suffix
    (value_arguments . (value_argument !name value: (prefix_expression target: (simple_identifier) @method))
      (value_argument !name value: (line_string_literal) @path) .) @route.vapor
    (lambda_literal) @block)
  (#eq? @_route "on") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]")
  (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @_route))
  (call_suffix
    (value_arguments . (value_argument !name value: (prefix_expression target: (simple_identifier) @method))
      (value_argument !name value: (line_string_literal) @path) . (value_argument name: (value_argument_label) @_body) .) @route.vapor
    (lambda_literal) @block)
  (#eq? @_route "on") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]") (#eq? @_body "body")
  (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
; ... or no path of its own (the root of a RouteCollection's routes, of a group's): app.get(use: index),
; todos.get(use: index) on a group bound to a name, app.get { req in ... }, named by its prefixes alone
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @method @path))
  (call_suffix
    (value_arguments . (value_argument name: (value_argument_label) @_use value: [(simple_identifier) @handler
      (navigation_expression target: (self_expression) suffix: (navigation_suffix suffix: (simple_identifier) @handler))]) .) @route.vapor)
  (#match? @method "^(get|post|put|patch|delete|head|options)$") (#not-match? @_on "[Cc]lient$") (#match? @_on "^\\w+$|[.]grouped[(]") (#eq? @_use "use")
  (#set! strip ".*") (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
(call_expression
  (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @method @path))
  (call_suffix . (lambda_literal) @block .) @route.vapor
  (#match? @method "^(get|post|put|patch|delete|head|options)$") (#match? @_on "^(app|routes|router)$")
  (#set! strip ".*") (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
; ... under the path of the group around it: app.group("api") { api in ... }, whose own routes may name no path
; (a group of middleware names none: app.group(User.guardMiddleware()) { protected in ... }); a group's second
; component (group("todos", ":id")) is the prefix of its suffix, which holds the closure
(call_expression
  (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @_group))
  (call_suffix (value_arguments . (value_argument !name value: (line_string_literal) @prefix)) (lambda_literal))
  (#eq? @_group "group")) @prefixed
(call_expression
  (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @_group))
  (call_suffix (value_arguments . (value_argument !name) . (value_argument !name value: (line_string_literal) @prefix)) (lambda_literal)) @prefixed
  (#eq? @_group "group"))
(call_expression
  (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @_group))
  (call_suffix
    (lambda_literal (statements (call_expression
      (navigation_expression target: [(simple_identifier) (call_expression)] @_on suffix: (navigation_suffix suffix: (simple_identifier) @method @path))
      (call_suffix
        (value_arguments . (value_argument name: (value_argument_label) @_use value: [(simple_identifier) @handler
          (navigation_expression target: (self_expression) suffix: (navigation_suffix suffix: (simple_identifier) @handler))]) .) @route.vapor)))))
  (#eq? @_group "group") (#match? @method "^(get|post|put|patch|delete|head|options)$") (#eq? @_use "use")
  (#set! strip ".*") (#set! requires "swift_server") (#set! when_used "vapor hummingbird"))
;
; swift-argument-parser: a ParsableCommand (AsyncParsableCommand) type is a command, named by its
; configuration's commandName, else by its type's name with a lower-case first letter (Repeat: repeat)
(class_declaration
  name: (type_identifier) @path
  (inheritance_specifier inherits_from: (user_type (type_identifier) @_command))
  (#match? @_command "^(Async)?ParsableCommand$")
  (#set! route "{lower}")) @command.argument-parser
(class_declaration
  (inheritance_specifier inherits_from: (user_type (type_identifier) @_command))
  body: (class_body (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @_configuration)
    value: (call_expression . (simple_identifier) @_configured
      (call_suffix (value_arguments (value_argument name: (value_argument_label (simple_identifier) @_name) value: (line_string_literal) @path))))))
  (#match? @_command "^(Async)?ParsableCommand$") (#eq? @_configuration "configuration")
  (#eq? @_configured "CommandConfiguration") (#eq? @_name "commandName")) @command.argument-parser
;
; A group, let todos = routes.grouped("todos") (its path's components, up to three: grouped("api", "v1") is api/v1): the routes
; called on todos in the same function are under its prefix, and so are the groups made from it; one called on in
; place, app.grouped("api").grouped("v1").get("users", use: list), is too
(call_expression
  (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @_grouped))
  (call_suffix (value_arguments . (value_argument !name value: (line_string_literal) @prefix)
    . (value_argument !name value: (line_string_literal) @prefix)? . (value_argument !name value: (line_string_literal) @prefix)? .))
  (#eq? @_grouped "grouped")) @group
