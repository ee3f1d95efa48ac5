; A program's main function (`void main(List<String> args) { }`, a Flutter app's `void main() => runApp(App())`):
; its body is the definition (tags.scm), so the entrypoint is the function whole.
(program (function_signature name: (identifier) @name) . (function_body) @main (#eq? @name "main"))
;
; The file serves HTTP with shelf_router: it imports it. A router's method is a route only in such a file.
(import_specification (configurable_uri (uri (string_literal) @uses.shelf_router))
  (#match? @uses.shelf_router "^['\"]package:shelf_router/"))
; shelf_router: router.get('/users/<id>', getUser) or router.post('/users', (Request request) async { ... }),
; a path from the root and its handler, named or written there; router.add('PATCH', '/users/<id>', update).
(_ (identifier) @app
  . (selector (unconditional_assignable_selector (identifier) @method))
  . (selector (argument_part (arguments . (argument (string_literal) @path) . (argument [(identifier) @handler (function_expression) @block]) .))) @route.shelf_router
  (#match? @method "^(get|post|put|patch|delete|head|options|all)$")
  (#match? @path "^['\"]/")
  (#set! requires "shelf_router"))
(_ (identifier) @app
  . (selector (unconditional_assignable_selector (identifier) @_add))
  . (selector (argument_part (arguments . (argument (string_literal) @method) . (argument (string_literal) @path) . (argument [(identifier) @handler (function_expression) @block]) .))) @route.shelf_router
  (#eq? @_add "add")
  (#match? @path "^['\"]/")
  (#set! requires "shelf_router"))
; ... the same in a cascade on the router: final router = Router()..get('/', root)..post('/echo', echo)
(cascade_section
  (cascade_selector (identifier) @method)
  . (argument_part (arguments . (argument (string_literal) @path) . (argument [(identifier) @handler (function_expression) @block]) .))
  (#match? @method "^(get|post|put|patch|delete|head|options|all)$")
  (#match? @path "^['\"]/")
  (#set! requires "shelf_router")) @route.shelf_router
; ... and shelf_router_generator's annotated methods: @Route.get('/say-hi/<name>') on a method of the class
; whose router the generator writes; the method is its handler.
(_
  (annotation
    name: (scoped_identifier scope: (identifier) @_route name: (identifier) @method)
    (arguments . (argument (string_literal) @path)))
  . (method_signature) @route.shelf_router
  (#eq? @_route "Route")
  (#match? @method "^(get|post|put|patch|delete|head|options|all)$"))
;
; Dart Frog: a file under routes/ is the route its path names (file_routes in language.toml), served by its
; onRequest function (`Response onRequest(RequestContext context) { }`, `Future<Response> onRequest(...) async`).
(program (function_signature name: (identifier) @handler) . (function_body) @route.file (#eq? @handler "onRequest"))
;
; package:args: a class extending Command, or a project's own base of commands (`extends DartFrogCommand`),
; names its command (`final name = 'commit';`, `String get name => 'commit';`); the class is its handler.
(class_definition
  superclass: (superclass (type_identifier) @_command)
  body: (class_body
    (declaration [
      (initialized_identifier_list (initialized_identifier . (identifier) @_name . (string_literal) @path))
      (static_final_declaration_list (static_final_declaration . (identifier) @_name . (string_literal) @path))]))
  (#match? @_command "Command$") (#eq? @_name "name")) @command.args
(class_definition
  superclass: (superclass (type_identifier) @_command)
  body: (class_body
    (method_signature (getter_signature name: (identifier) @_name)) . (function_body (string_literal) @path))
  (#match? @_command "Command$") (#eq? @_name "name")) @command.args
