(function_declaration name: (identifier) @name (#eq? @name "main")) @main
; Spring: @GetMapping("/path") on a function, under the class's @RequestMapping("/prefix")
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @method)
    (value_arguments . (value_argument (string_literal) @path)))))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @route.spring
; ... or a list of paths, each a route: @GetMapping(["/vets", "/vets.html"]), @GetMapping(value = ["/a"])
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @method)
    (value_arguments . (value_argument (collection_literal (string_literal) @path))))))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @route.spring
(function_declaration
  (modifiers (annotation (user_type (identifier) @method)))
  (#match? @method "^(Get|Post|Put|Patch|Delete)Mapping$")) @route.spring
; ... a @RequestMapping's methods: method = [RequestMethod.GET, RequestMethod.POST] (read with the route's other matches)
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_mapping)
    (value_arguments (value_argument (identifier) @_key
      (collection_literal (navigation_expression (identifier) @_enum (identifier) @method)))))))
  (#eq? @_mapping "RequestMapping") (#eq? @_key "method") (#eq? @_enum "RequestMethod")) @route.spring
(class_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_mapping)
    (value_arguments . (value_argument (string_literal) @prefix)))))
  (#eq? @_mapping "RequestMapping")) @prefixed
; Micronaut: @Get("/{id}") or @Get on a function, under the class's @Controller("/books"), in a file that imports
; io.micronaut (a Spring @Controller's argument names a bean, not a path: only a path is a prefix)
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @method)
    (value_arguments . (value_argument (string_literal) @path)))))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Head|Options)$")
  (#set! requires "micronaut")) @route.micronaut
(function_declaration
  (modifiers (annotation (user_type (identifier) @method)))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Head|Options)$")
  (#set! requires "micronaut")) @route.micronaut
(class_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_controller)
    (value_arguments . (value_argument (string_literal) @prefix)))))
  (#eq? @_controller "Controller") (#match? @prefix "^.?/")) @prefixed
(import (qualified_identifier) @uses.micronaut (#match? @uses.micronaut "^io[.]micronaut[.]"))
; Ktor: get("/path") { } inside routing { }, under route("/prefix") { } (where a path needs no leading
; slash: get("{id}") { }); the block is the route's handler
(call_expression
  (call_expression (identifier) @method (value_arguments . (value_argument (string_literal) @path)))
  (annotated_lambda) @block
  (#match? @method "^(get|post|put|patch|delete|head|options)$")) @route.ktor
(call_expression
  . (identifier) @method . (annotated_lambda) @block
  (#match? @method "^(get|post|put|patch|delete|head|options)$")) @route.ktor
(call_expression
  (call_expression (identifier) @_route (value_arguments . (value_argument (string_literal) @prefix)))
  (annotated_lambda)
  (#eq? @_route "route")) @prefixed
;
; Spring's functional routes in Kotlin's router { } and coRouter { }, in a file that imports them: GET("/person/{id}",
; handler::getPerson) or POST("/person") { ... }, under "/api".nest { } or path("/api").nest { }
(call_expression
  (identifier) @method
  (value_arguments . (value_argument (string_literal) @path) (value_argument)* . (value_argument (navigation_expression) @handler) .)
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! requires "spring_functional")) @route.spring
(call_expression
  (call_expression (identifier) @method (value_arguments . (value_argument (string_literal) @path)))
  (annotated_lambda) @block
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! requires "spring_functional")) @route.spring
(call_expression
  (navigation_expression [(string_literal) @prefix (call_expression (identifier) @_path (value_arguments . (value_argument (string_literal) @prefix)))] (identifier) @_nest)
  (annotated_lambda) @prefixed
  (#eq? @_nest "nest"))
(import (qualified_identifier) @uses.spring_functional
  (#match? @uses.spring_functional "^org[.]springframework[.]web[.](reactive|servlet)[.]function"))
;
; gRPC: a class extending a service's generated base (GreeterGrpcKt.GreeterCoroutineImplBase, GreeterGrpc.GreeterImplBase)
; implements the Greeter service
(class_declaration
  (delegation_specifiers (delegation_specifier (constructor_invocation (user_type (identifier) @_grpc (identifier) @path))))
  (#match? @_grpc "Grpc(Kt)?$") (#match? @path "ImplBase$")
  (#set! strip "(Coroutine)?ImplBase$")
  (#set! entry_type "rpc_service")) @route.grpc
;
; GraphQL operations of Spring for GraphQL and Netflix DGS, as in Java: @QueryMapping fun bookById(...) is Query.bookById,
; @QueryMapping("book") or name = "book" names the field; @SchemaMapping(typeName = "Book") fun author(...) is Book.author
(function_declaration
  (modifiers (annotation (user_type (identifier) @_root)))
  name: (identifier) @path
  (#match? @_root "^(QueryMapping|MutationMapping|SubscriptionMapping|DgsQuery|DgsMutation|DgsSubscription)$")
  (#set! route "{@_root~Query|Mutation|Subscription}.{}") (#set! entry_type "rpc_service")) @route.graphql
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_root)
    (value_arguments (value_argument (identifier)? @_name (string_literal) @path)))))
  (#match? @_root "^(QueryMapping|MutationMapping|SubscriptionMapping|DgsQuery|DgsMutation|DgsSubscription)$")
  (#set! route "{@_root~Query|Mutation|Subscription}.{}") (#set! entry_type "rpc_service")) @route.graphql
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_schema)
    (value_arguments (value_argument (identifier) @_type (string_literal) @_root)))))
  name: (identifier) @path
  (#match? @_schema "^(SchemaMapping|BatchMapping|DgsData)$") (#match? @_type "^(typeName|parentType)$")
  (#set! route "{@_root}.{}") (#set! entry_type "rpc_service")) @route.graphql
;
; Tasks, as in Java: @Scheduled on a function, named by itself; a listener of a topic or queue, named by it (each of
; a list): @KafkaListener(topics = ["orders"]), @RabbitListener(queues = ["q"]), @JmsListener(destination = "d"),
; @SqsListener("q"), @Incoming("prices")
(function_declaration
  (modifiers (annotation [(user_type (identifier) @_task) (constructor_invocation (user_type (identifier) @_task))]))
  (#eq? @_task "Scheduled")
  (#set! entry_type "task")) @route.scheduled
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_task)
    (value_arguments (value_argument (identifier) @_key [(string_literal) @path (collection_literal (string_literal) @path)])))))
  (#eq? @_task "KafkaListener") (#eq? @_key "topics")
  (#set! entry_type "task")) @route.kafka
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_task)
    (value_arguments (value_argument (identifier) @_key [(string_literal) @path (collection_literal (string_literal) @path)])))))
  (#eq? @_task "RabbitListener") (#match? @_key "^(queues|queueNames)$")
  (#set! entry_type "task")) @route.rabbitmq
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_task)
    (value_arguments (value_argument (identifier) @_key (string_literal) @path)))))
  (#eq? @_task "JmsListener") (#eq? @_key "destination")
  (#set! entry_type "task")) @route.jms
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_task)
    (value_arguments . (value_argument . [(string_literal) @path (collection_literal (string_literal) @path)])))))
  (#eq? @_task "SqsListener")
  (#set! entry_type "task")) @route.sqs
(function_declaration
  (modifiers (annotation (constructor_invocation (user_type (identifier) @_task)
    (value_arguments . (value_argument . (string_literal) @path)))))
  (#eq? @_task "Incoming")
  (#set! entry_type "task")) @route.reactive-messaging
; ... and Android's WorkManager workers (a class extending CoroutineWorker, Worker or ListenableWorker), named by
; the class, its doWork the handler
(class_declaration name: (identifier) @path
  (delegation_specifiers (delegation_specifier (constructor_invocation (user_type (identifier) @_worker))))
  (class_body (function_declaration name: (identifier) @_work) @route.workmanager)
  (#match? @_worker "^(CoroutineWorker|Worker|ListenableWorker|RxWorker)$") (#match? @_work "^(doWork|startWork|createWork)$")
  (#set! entry_type "task"))
;
; Spring Cloud OpenFeign: an interface marked @FeignClient declares the routes of the service it calls
(class_declaration
  (modifiers (annotation [(user_type (identifier) @_feign) (constructor_invocation (user_type (identifier) @_feign))]))
  (#eq? @_feign "FeignClient")) @client
