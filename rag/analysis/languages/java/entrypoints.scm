(method_declaration name: (identifier) @name (#eq? @name "main")) @main
; Spring: @GetMapping("/path") or @GetMapping(value = "/path") on a method, under the class's @RequestMapping
(method_declaration
  (modifiers (annotation name: (identifier) @method arguments: (annotation_argument_list . (string_literal) @path)))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @route.spring
(method_declaration
  (modifiers (annotation name: (identifier) @method arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: (string_literal) @path))))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Request)Mapping$") (#match? @_key "^(value|path)$")) @route.spring
; ... or a list of paths, each a route: @GetMapping({"/vets", "/vets.html"}), @GetMapping(path = {"/a", "/b"})
(method_declaration
  (modifiers (annotation name: (identifier) @method arguments: (annotation_argument_list
    . (element_value_array_initializer (string_literal) @path))))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Request)Mapping$")) @route.spring
(method_declaration
  (modifiers (annotation name: (identifier) @method arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: (element_value_array_initializer (string_literal) @path)))))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Request)Mapping$") (#match? @_key "^(value|path)$")) @route.spring
(method_declaration
  (modifiers [(marker_annotation name: (identifier) @method) (annotation name: (identifier) @method)])
  (#match? @method "^(Get|Post|Put|Patch|Delete)Mapping$")) @route.spring
; ... a @RequestMapping's methods: method = RequestMethod.GET or method = {RequestMethod.GET, RequestMethod.POST}
; (read with the route's other matches: a list)
(method_declaration
  (modifiers (annotation name: (identifier) @_mapping arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: [
      (field_access object: (identifier) @_enum field: (identifier) @method)
      (element_value_array_initializer (field_access object: (identifier) @_enum field: (identifier) @method))]))))
  (#eq? @_mapping "RequestMapping") (#eq? @_key "method") (#eq? @_enum "RequestMethod")) @route.spring
; ... under the @RequestMapping of its class, or of the interface it is declared in (the API an OpenAPI generator
; writes, which a controller implements)
(_
  (modifiers (annotation name: (identifier) @_mapping arguments: (annotation_argument_list . (string_literal) @prefix)))
  body: [(class_body) (interface_body)]
  (#eq? @_mapping "RequestMapping")) @prefixed
(_
  (modifiers (annotation name: (identifier) @_mapping arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: (string_literal) @prefix))))
  body: [(class_body) (interface_body)]
  (#eq? @_mapping "RequestMapping") (#match? @_key "^(value|path)$")) @prefixed
(_
  (modifiers (annotation name: (identifier) @_mapping arguments: (annotation_argument_list
    . (element_value_array_initializer . (string_literal) @prefix))))
  body: [(class_body) (interface_body)]
  (#eq? @_mapping "RequestMapping")) @prefixed
; JAX-RS: @GET with an optional @Path("{id}") on a method, under the class's @Path("/orders")
(method_declaration
  (modifiers (marker_annotation name: (identifier) @method))
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")) @route.jaxrs
(method_declaration
  (modifiers
    (marker_annotation name: (identifier) @method)
    (annotation name: (identifier) @_path arguments: (annotation_argument_list . (string_literal) @path)))
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$") (#eq? @_path "Path")) @route.jaxrs
(method_declaration
  (modifiers
    (annotation name: (identifier) @_path arguments: (annotation_argument_list . (string_literal) @path))
    (marker_annotation name: (identifier) @method))
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$") (#eq? @_path "Path")) @route.jaxrs
(class_declaration
  (modifiers (annotation name: (identifier) @_path arguments: (annotation_argument_list . (string_literal) @prefix)))
  (#eq? @_path "Path")) @prefixed
;
; Micronaut: @Get("/{id}"), @Get(uri = "/{id}") or @Get on a method, under the class's @Controller("/books"), in a
; file that imports io.micronaut (a Spring @Controller's argument names a bean, not a path: only a path is a prefix)
(method_declaration
  (modifiers (annotation name: (identifier) @method arguments: (annotation_argument_list . (string_literal) @path)))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Head|Options)$")
  (#set! requires "micronaut")) @route.micronaut
(method_declaration
  (modifiers (annotation name: (identifier) @method arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: (string_literal) @path))))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Head|Options)$") (#match? @_key "^(value|uri)$")
  (#set! requires "micronaut")) @route.micronaut
(method_declaration
  (modifiers (marker_annotation name: (identifier) @method))
  (#match? @method "^(Get|Post|Put|Patch|Delete|Head|Options)$")
  (#set! requires "micronaut")) @route.micronaut
(class_declaration
  (modifiers (annotation name: (identifier) @_controller arguments: (annotation_argument_list . (string_literal) @prefix)))
  (#eq? @_controller "Controller") (#match? @prefix "^.?/")) @prefixed
(import_declaration (scoped_identifier) @uses.micronaut (#match? @uses.micronaut "^io[.]micronaut[.]"))
;
; gRPC: a class extending a service's generated base, GreeterGrpc.GreeterImplBase, implements the Greeter service
(class_declaration
  superclass: (superclass (scoped_type_identifier (type_identifier) @_grpc (type_identifier) @path))
  (#match? @_grpc "Grpc$") (#match? @path "ImplBase$")
  (#set! strip "ImplBase$")
  (#set! entry_type "rpc_service")) @route.grpc
;
; Spring's functional routes (WebFlux's RouterFunctions, Web MVC's RouterFunctions.fn), in a file that imports them:
; a builder's .GET("/person/{id}", handler::get) or .POST("/person", accept(JSON), request -> ...), and a request
; predicate's route(GET("/person"), handler::list) or .andRoute(POST("/person"), handler::create); under the path
; of a .path("/api", builder -> ...) or nest(path("/api"), ...) around them (its arguments: the chain it is called
; on is not under it)
(method_invocation
  object: (_)
  name: (identifier) @method
  arguments: (argument_list . (string_literal) @path (_)* . [(method_reference) @handler (lambda_expression) @block])
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! requires "spring_functional")) @route.spring
(method_invocation
  name: (identifier) @_route
  arguments: (argument_list
    . (method_invocation name: (identifier) @method arguments: (argument_list . (string_literal) @path .))
    . [(method_reference) @handler (lambda_expression) @block] .)
  (#match? @_route "^(route|andRoute)$")
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)$")
  (#set! requires "spring_functional")) @route.spring
(method_invocation
  name: (identifier) @_path
  arguments: (argument_list . (string_literal) @prefix . (lambda_expression) .) @prefixed
  (#eq? @_path "path"))
(method_invocation
  name: (identifier) @_nest
  arguments: (argument_list . (method_invocation name: (identifier) @_path arguments: (argument_list . (string_literal) @prefix .)) . (_) .) @prefixed
  (#match? @_nest "^(nest|andNest)$") (#eq? @_path "path"))
(import_declaration (scoped_identifier) @uses.spring_functional
  (#match? @uses.spring_functional "^org[.]springframework[.]web[.](reactive|servlet)[.]function[.]server"))
(import_declaration (scoped_identifier) @uses.spring_functional
  (#match? @uses.spring_functional "^org[.]springframework[.]web[.]servlet[.]function"))
;
; Tasks: a method run on a schedule (Spring's, Quarkus's and Micronaut's @Scheduled), named by itself; a listener of
; a topic or queue, named by it (each of a list): Spring Kafka's @KafkaListener(topics = "orders"), Spring AMQP's
; @RabbitListener(queues = "q"), JMS's @JmsListener(destination = "d"), Spring Cloud AWS's @SqsListener("q"),
; MicroProfile Reactive Messaging's @Incoming("prices") (Quarkus)
(method_declaration
  (modifiers [(marker_annotation name: (identifier) @_task) (annotation name: (identifier) @_task)])
  (#eq? @_task "Scheduled")
  (#set! entry_type "task")) @route.scheduled
(method_declaration
  (modifiers (annotation name: (identifier) @_task arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: [(string_literal) @path (element_value_array_initializer (string_literal) @path)]))))
  (#eq? @_task "KafkaListener") (#eq? @_key "topics")
  (#set! entry_type "task")) @route.kafka
(method_declaration
  (modifiers (annotation name: (identifier) @_task arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: [(string_literal) @path (element_value_array_initializer (string_literal) @path)]))))
  (#eq? @_task "RabbitListener") (#match? @_key "^(queues|queueNames)$")
  (#set! entry_type "task")) @route.rabbitmq
(method_declaration
  (modifiers (annotation name: (identifier) @_task arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_key value: (string_literal) @path))))
  (#eq? @_task "JmsListener") (#eq? @_key "destination")
  (#set! entry_type "task")) @route.jms
(method_declaration
  (modifiers (annotation name: (identifier) @_task arguments: (annotation_argument_list . [(string_literal) @path (element_value_array_initializer (string_literal) @path)])))
  (#eq? @_task "SqsListener")
  (#set! entry_type "task")) @route.sqs
(method_declaration
  (modifiers (annotation name: (identifier) @_task arguments: (annotation_argument_list . (string_literal) @path)))
  (#eq? @_task "Incoming")
  (#set! entry_type "task")) @route.reactive-messaging
; ... and Android's WorkManager workers (a class extending Worker, ListenableWorker or RxWorker), named by the class,
; its doWork the handler
(class_declaration name: (identifier) @path
  superclass: (superclass (type_identifier) @_worker)
  body: (class_body (method_declaration name: (identifier) @_work) @route.workmanager)
  (#match? @_worker "^(Worker|ListenableWorker|RxWorker)$") (#match? @_work "^(doWork|startWork|createWork)$")
  (#set! entry_type "task"))
;
; picocli, in a file that imports it: a class annotated @Command(name = "checksum", ...) is that command (its call()
; or run() runs it); a method annotated so is a subcommand of its class (picocli's annotation is on nothing else)
(import_declaration (scoped_identifier) @uses.picocli (#match? @uses.picocli "^picocli([.]|$)"))
(_
  (modifiers (annotation name: (identifier) @_command
    arguments: (annotation_argument_list (element_value_pair key: (identifier) @_name value: (string_literal) @path))))
  (#eq? @_command "Command") (#eq? @_name "name")
  (#set! requires "picocli")) @command.picocli
;
; Quartz jobs: a class implementing org.quartz's Job (in a file that imports org.quartz), or extending Spring's
; QuartzJobBean, named by the class, its execute (executeInternal) the handler
(import_declaration (scoped_identifier) @uses.quartz (#match? @uses.quartz "^org[.]quartz([.]|$)"))
(class_declaration name: (identifier) @path
  interfaces: (super_interfaces (type_list (type_identifier) @_job))
  body: (class_body (method_declaration name: (identifier) @_execute) @route.quartz)
  (#match? @_job "^(Job|InterruptableJob|StatefulJob)$") (#eq? @_execute "execute")
  (#set! requires "quartz") (#set! entry_type "task"))
(class_declaration name: (identifier) @path
  superclass: (superclass (type_identifier) @_bean)
  body: (class_body (method_declaration name: (identifier) @_execute) @route.quartz)
  (#eq? @_bean "QuartzJobBean") (#eq? @_execute "executeInternal")
  (#set! entry_type "task"))
;
; Javalin, in a file that imports io.javalin: app.get("/users/{id}", UserController::getOne), its handler a method
; reference, a name or the lambda written there (a path from the root: headers.put("Content-Type", type) is none)
(import_declaration (scoped_identifier) @uses.javalin (#match? @uses.javalin "^io[.]javalin([.]|$)"))
(method_invocation
  name: (identifier) @method
  arguments: (argument_list . (string_literal) @path . [(method_reference) @handler (identifier) @handler (lambda_expression) @block] .)
  (#match? @method "^(get|post|put|patch|delete|head|options|ws|sse)$") (#match? @path "^\"/")
  (#set! requires "javalin")) @route.javalin
; Spark, in a file that imports spark.Spark (its static methods): get("/hello", (req, res) -> "Hello"), under the
; path of a path("/api", () -> { ... }) around it (the pattern of Spring's .path below)
(import_declaration (scoped_identifier) @uses.spark (#match? @uses.spark "^spark[.]Spark"))
(method_invocation
  !object
  name: (identifier) @method
  arguments: (argument_list . (string_literal) @path . [(method_reference) @handler (identifier) @handler (lambda_expression) @block] .)
  (#match? @method "^(get|post|put|patch|delete|head|options)$") (#match? @path "^\"/")
  (#set! requires "spark")) @route.spark
; Vert.x Web, in a file that imports io.vertx: router.get("/api/items").handler(this::getAll), the route's
; handler the one its .handler(...) names (a route of every method: router.route("/x").handler(...))
(import_declaration (scoped_identifier) @uses.vertx (#match? @uses.vertx "^io[.]vertx[.]"))
(method_invocation
  object: (method_invocation name: (identifier) @method arguments: (argument_list . (string_literal) @path .))
  name: (identifier) @_handler
  arguments: (argument_list . [(method_reference) @handler (identifier) @handler (lambda_expression) @block] .)
  (#match? @method "^(get|post|put|patch|delete|head|options|route)$") (#match? @_handler "^(handler|blockingHandler)$")
  (#set! requires "vertx")) @route.vertx
;
; GraphQL operations of Spring for GraphQL and Netflix DGS: @QueryMapping, @MutationMapping, @SubscriptionMapping
; (@DgsQuery, @DgsMutation, @DgsSubscription) on a method is the field of that root type the method is named for, or
; the annotation names (@QueryMapping("book"), name = ..., DGS's field = ...): Query.bookById
(method_declaration
  (modifiers (marker_annotation name: (identifier) @_root))
  name: (identifier) @path
  (#match? @_root "^(QueryMapping|MutationMapping|SubscriptionMapping|DgsQuery|DgsMutation|DgsSubscription)$")
  (#set! route "{@_root~Query|Mutation|Subscription}.{}") (#set! entry_type "rpc_service")) @route.graphql
(method_declaration
  (modifiers (annotation name: (identifier) @_root arguments: (annotation_argument_list
    [(string_literal) @path (element_value_pair key: (identifier) @_name value: (string_literal) @path)])))
  (#match? @_root "^(QueryMapping|MutationMapping|SubscriptionMapping|DgsQuery|DgsMutation|DgsSubscription)$")
  (#match? @_name "^(name|value|field)$")
  (#set! route "{@_root~Query|Mutation|Subscription}.{}") (#set! entry_type "rpc_service")) @route.graphql
; ... and a field of another type (@SchemaMapping(typeName = "Book", field = "author"), @BatchMapping, DGS's
; @DgsData(parentType = "Book", field = "author")), named for the method when the annotation names no field
(method_declaration
  (modifiers (annotation name: (identifier) @_schema arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_type value: (string_literal) @_root))))
  name: (identifier) @path
  (#match? @_schema "^(SchemaMapping|BatchMapping|DgsData)$") (#match? @_type "^(typeName|parentType)$")
  (#set! route "{@_root}.{}") (#set! entry_type "rpc_service")) @route.graphql
(method_declaration
  (modifiers (annotation name: (identifier) @_schema arguments: (annotation_argument_list
    (element_value_pair key: (identifier) @_type value: (string_literal) @_root)
    (element_value_pair key: (identifier) @_field value: (string_literal) @path))))
  (#match? @_schema "^(SchemaMapping|BatchMapping|DgsData)$") (#match? @_type "^(typeName|parentType)$") (#eq? @_field "field")
  (#set! route "{@_root}.{}") (#set! entry_type "rpc_service")) @route.graphql
;
; Spring Cloud OpenFeign: an interface marked @FeignClient declares the routes of the service it calls
(interface_declaration
  (modifiers [(annotation name: (identifier) @_feign) (marker_annotation name: (identifier) @_feign)])
  (#eq? @_feign "FeignClient")) @client
