; Programs: `def main(args: Array[String])` in an object, an object extending `App` (its body is the program; Cats
; Effect's `IOApp`, ZIO's `ZIOAppDefault` too), Scala 3's `@main def run()`.
(object_definition body: (template_body (function_definition name: (identifier) @name (#eq? @name "main")) @main))
(object_definition
  extend: (extends_clause (type_identifier) @_app)
  (#match? @_app "^(App|IOApp|ZIOAppDefault|ZIOApp)$")) @main
(function_definition (annotation name: (type_identifier) @_main) (#eq? @_main "main")) @main
;
; Akka HTTP and Pekko HTTP, in a file that imports them: `get { ... }` is a route, handled by its block, under the
; paths of the `path("users")` and `pathPrefix("api")` directives around it (of a path matcher, `path("users" /
; Segment)`, its first segment); `path("ping") { complete("PONG") }` is a route for every method.
(call_expression
  function: (identifier) @method
  arguments: (block) @block
  (#match? @method "^(get|post|put|patch|delete|head|options)$")
  (#set! requires "routing_dsl") (#set! when_used "akka pekko")) @route.akka
(call_expression
  function: (call_expression function: (identifier) @_directive
    arguments: (arguments . [(string) @prefix (infix_expression left: (string) @prefix)
                             (infix_expression left: (infix_expression left: (string) @prefix))]))
  arguments: (block) @prefixed
  (#match? @_directive "^(path|pathPrefix)$"))
(call_expression
  function: (call_expression function: (identifier) @_directive arguments: (arguments . (string) @path .))
  arguments: (block . (call_expression function: (identifier) @_complete) @block .)
  (#eq? @_directive "path")
  (#match? @_complete "^(complete|redirect|getFromResource|getFromFile|getFromDirectory|getFromResourceDirectory)$")
  (#set! requires "routing_dsl") (#set! when_used "akka pekko")) @route.akka
(import_declaration . (identifier) @_akka . (identifier) @_http
  (#eq? @_akka "akka") (#eq? @_http "http")) @uses.routing_dsl
(import_declaration . (identifier) @_org . (identifier) @_apache . (identifier) @_pekko . (identifier) @_http
  (#eq? @_org "org") (#eq? @_pekko "pekko") (#eq? @_http "http")) @uses.routing_dsl
;
; Akka's and Pekko's scheduler, in a file that imports either: `system.scheduler.scheduleAtFixedRate(1.second,
; 5.seconds)(() => ...)` runs its second argument list on a schedule; named by the definition that schedules it (a
; `scheduleOnce` is a delay, no task).
(call_expression
  function: (call_expression function: (field_expression field: (identifier) @_schedule))
  (#match? @_schedule "^(scheduleAtFixedRate|scheduleWithFixedDelay|schedule)$")
  (#set! requires "actors") (#set! when_used "akka pekko")
  (#set! entry_type "task")) @route.akka
; ... and an actor there (`class Worker extends Actor`, `AbstractActor`, `PersistentActor`): a listener of its mailbox,
; named by its class, its `receive` (`receiveCommand`) the handler.
(class_definition name: (identifier) @path
  extend: (extends_clause (type_identifier) @_actor)
  body: (template_body (function_definition name: (identifier) @_receive) @route.akka)
  (#match? @_actor "^(Actor|AbstractActor|PersistentActor|AbstractPersistentActor)$")
  (#match? @_receive "^(receive|receiveCommand|createReceive)$")
  (#set! requires "actors") (#set! when_used "akka pekko")
  (#set! entry_type "task"))
(import_declaration . (identifier) @_akka (#eq? @_akka "akka")) @uses.akka @uses.actors
(import_declaration . (identifier) @_org . (identifier) @_apache . (identifier) @_pekko
  (#eq? @_org "org") (#eq? @_pekko "pekko")) @uses.pekko @uses.actors
;
; http4s, in a file that imports it: each `case GET -> Root / "hello" / name =>` of `HttpRoutes.of[IO] { ... }`
; (and `case req @ POST -> Root / "users" =>`, `case GET -> "static" /: rest =>`, an authed route's `case GET -> Root /
; "me" as user =>`) is a route, handled by its body, its path the segments after `Root` (`/hello/name`). The method is
; as deep in the pattern as the path has segments: a pattern per depth, up to seven segments.
(case_clause
  pattern: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(case_clause
  pattern: (infix_pattern left: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow)) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(case_clause
  pattern: (infix_pattern left: (infix_pattern left: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow))) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(case_clause
  pattern: (infix_pattern left: (infix_pattern left: (infix_pattern left: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow)))) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(case_clause
  pattern: (infix_pattern left: (infix_pattern left: (infix_pattern left: (infix_pattern left: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow))))) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(case_clause
  pattern: (infix_pattern left: (infix_pattern left: (infix_pattern left: (infix_pattern left:
    (infix_pattern left: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow)))))) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(case_clause
  pattern: (infix_pattern left: (infix_pattern left: (infix_pattern left: (infix_pattern left:
    (infix_pattern left: (infix_pattern left: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow))))))) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(case_clause
  pattern: (infix_pattern left: (infix_pattern left: (infix_pattern left: (infix_pattern left:
    (infix_pattern left: (infix_pattern left: (infix_pattern left: (infix_pattern
    left: [(identifier) @method (capture_pattern pattern: (identifier) @method)] operator: (operator_identifier) @_arrow)))))))) @path
  body: (_) @block
  (#eq? @_arrow "->") (#match? @method "^[A-Z]+$")
  (#set! strip "^[^>]*->\\s*(Root)?|\\s+as\\s+\\w+$|\\s+|\"|:") (#set! requires "http4s")) @route.http4s
(import_declaration . (identifier) @_org . (identifier) @_http4s
  (#eq? @_org "org") (#eq? @_http4s "http4s")) @uses.http4s
;
; ZIO HTTP, in a file that imports it: `Method.GET / "users" / int("id") -> handler { ... }` in `Routes(...)`, handled
; by what follows the arrow, its path the segments after the method (`/users/int(id)`); up to six segments.
(infix_expression
  left: (field_expression value: (identifier) @_m field: (identifier) @method) @path
  operator: (operator_identifier) @_arrow right: (_) @block
  (#eq? @_m "Method") (#eq? @_arrow "->")
  (#set! strip "^Method\\.\\w+|\\bRoot\\b|\\s+|\"") (#set! requires "zio-http")) @route.zio-http
(infix_expression
  left: (infix_expression left: (field_expression value: (identifier) @_m field: (identifier) @method)) @path
  operator: (operator_identifier) @_arrow right: (_) @block
  (#eq? @_m "Method") (#eq? @_arrow "->")
  (#set! strip "^Method\\.\\w+|\\bRoot\\b|\\s+|\"") (#set! requires "zio-http")) @route.zio-http
(infix_expression
  left: (infix_expression left: (infix_expression left:
    (field_expression value: (identifier) @_m field: (identifier) @method))) @path
  operator: (operator_identifier) @_arrow right: (_) @block
  (#eq? @_m "Method") (#eq? @_arrow "->")
  (#set! strip "^Method\\.\\w+|\\bRoot\\b|\\s+|\"") (#set! requires "zio-http")) @route.zio-http
(infix_expression
  left: (infix_expression left: (infix_expression left: (infix_expression left:
    (field_expression value: (identifier) @_m field: (identifier) @method)))) @path
  operator: (operator_identifier) @_arrow right: (_) @block
  (#eq? @_m "Method") (#eq? @_arrow "->")
  (#set! strip "^Method\\.\\w+|\\bRoot\\b|\\s+|\"") (#set! requires "zio-http")) @route.zio-http
(infix_expression
  left: (infix_expression left: (infix_expression left: (infix_expression left: (infix_expression left:
    (field_expression value: (identifier) @_m field: (identifier) @method))))) @path
  operator: (operator_identifier) @_arrow right: (_) @block
  (#eq? @_m "Method") (#eq? @_arrow "->")
  (#set! strip "^Method\\.\\w+|\\bRoot\\b|\\s+|\"") (#set! requires "zio-http")) @route.zio-http
(infix_expression
  left: (infix_expression left: (infix_expression left: (infix_expression left: (infix_expression left: (infix_expression left:
    (field_expression value: (identifier) @_m field: (identifier) @method)))))) @path
  operator: (operator_identifier) @_arrow right: (_) @block
  (#eq? @_m "Method") (#eq? @_arrow "->")
  (#set! strip "^Method\\.\\w+|\\bRoot\\b|\\s+|\"") (#set! requires "zio-http")) @route.zio-http
(infix_expression
  left: (infix_expression left: (infix_expression left: (infix_expression left: (infix_expression left:
    (infix_expression left: (infix_expression left:
    (field_expression value: (identifier) @_m field: (identifier) @method))))))) @path
  operator: (operator_identifier) @_arrow right: (_) @block
  (#eq? @_m "Method") (#eq? @_arrow "->")
  (#set! strip "^Method\\.\\w+|\\bRoot\\b|\\s+|\"") (#set! requires "zio-http")) @route.zio-http
(import_declaration . (identifier) @_zio . (identifier) @_http
  (#eq? @_zio "zio") (#eq? @_http "http")) @uses.zio-http
;
; Play's routing DSL (SIRD), in a file that imports it: `case GET(p"/posts/$id") => controller.show(id)` in a
; router's `routes`, handled by the action it names (or by its body); under the prefix conf/routes includes the
; router at (`->  /v1/posts  v1.post.PostRouter`, rag/analysis/entrypoints/mounts.py).
(case_clause
  pattern: (case_class_pattern type: (type_identifier) @method
    pattern: (interpolated_string_expression interpolator: (identifier) @_p (interpolated_string) @path))
  body: (_) @block
  (#eq? @_p "p") (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! requires "play")) @route.play
(case_clause
  pattern: (case_class_pattern type: (type_identifier) @method
    pattern: (interpolated_string_expression interpolator: (identifier) @_p (interpolated_string) @path))
  body: [(field_expression) (call_expression)] @handler
  (#eq? @_p "p") (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! requires "play")) @route.play
(import_declaration . (identifier) @_play . (identifier) @_api . (identifier) @_routing . (identifier) @_sird
  (#eq? @_play "play") (#eq? @_api "api") (#eq? @_routing "routing") (#eq? @_sird "sird")) @uses.play
;
; Scalatra, in a file that imports it: `get("/users/:id") { ... }` in a servlet, handled by its block.
(call_expression
  function: (call_expression function: (identifier) @method arguments: (arguments . (string) @path))
  arguments: (block) @block
  (#match? @method "^(get|post|put|patch|delete|head|options)$")
  (#set! requires "scalatra")) @route.scalatra
(import_declaration . (identifier) @_org . (identifier) @_scalatra
  (#eq? @_org "org") (#eq? @_scalatra "scalatra")) @uses.scalatra
;
; Cask: `@cask.get("/hello")`, `@cask.post("/do")` on a method, its handler.
(function_definition
  (annotation name: (stable_type_identifier (identifier) @_cask (type_identifier) @method) arguments: (arguments . (string) @path))
  (#eq? @_cask "cask") (#match? @method "^(get|post|put|patch|delete)$")) @route.cask
