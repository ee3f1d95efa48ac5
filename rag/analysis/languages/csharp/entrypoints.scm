(method_declaration name: (identifier) @name (#eq? @name "Main")) @main
; A file of top-level statements (C# 9) is the program's Main.
(compilation_unit (global_statement)) @main
; ASP.NET: [HttpGet("path")] or [HttpGet] (with [Route("path")]) on an action, under the controller's [Route("prefix")];
; the template is the first argument without a name ([HttpGet(Name = "GetOrders")] names the route, not its path)
(method_declaration
  (attribute_list (attribute name: (identifier) @method (attribute_argument_list . (attribute_argument !name (string_literal) @path))))
  (#match? @method "^Http(Get|Post|Put|Patch|Delete)$")) @route.aspnet
(method_declaration
  (attribute_list (attribute name: (identifier) @method))
  (#match? @method "^Http(Get|Post|Put|Patch|Delete)$")) @route.aspnet
(method_declaration
  (attribute_list (attribute name: (identifier) @method))
  (attribute_list (attribute name: (identifier) @_route (attribute_argument_list . (attribute_argument (string_literal) @path))))
  (#match? @method "^Http(Get|Post|Put|Patch|Delete)$") (#eq? @_route "Route")) @route.aspnet
(method_declaration
  (attribute_list (attribute name: (identifier) @_route (attribute_argument_list . (attribute_argument (string_literal) @path))))
  (attribute_list (attribute name: (identifier) @method))
  (#match? @method "^Http(Get|Post|Put|Patch|Delete)$") (#eq? @_route "Route")) @route.aspnet
; [Route("path")] alone: an action of every method
(method_declaration
  (attribute_list (attribute name: (identifier) @_route (attribute_argument_list . (attribute_argument (string_literal) @path))))
  (#eq? @_route "Route")) @route.aspnet
(class_declaration
  (attribute_list (attribute name: (identifier) @_route (attribute_argument_list . (attribute_argument (string_literal) @prefix))))
  (#eq? @_route "Route")) @prefixed
; [Area("Admin")] on a controller: the [area] of its routes, conventional ones too
(class_declaration
  (attribute_list (attribute name: (identifier) @_area (attribute_argument_list . (attribute_argument (string_literal) @area))))
  (#eq? @_area "Area")) @areaed
;
; ASP.NET MVC: a public method of a controller (a class named ...Controller whose base is one, not the API's
; ControllerBase) that returns an action result is an action; without a route of its own it serves the
; class's route, or else the app's conventional [controller]/[action] (conventional_route)
(class_declaration name: (identifier) @_controller (base_list [(identifier) (qualified_name)] @_base)
  body: (declaration_list (method_declaration (modifier) @_public returns: (_) @_returns name: (identifier) @action) @route.aspnet)
  (#match? @_controller "Controller$") (#match? @_base "(^|[.])[A-Za-z]*Controller$") (#eq? @_public "public")
  (#match? @_returns "Result(<|>|$)"))
; ASP.NET minimal APIs: app.MapGet("/path", handler), a template with or without its leading slash
(invocation_expression
  function: (member_access_expression name: (identifier) @method)
  arguments: (argument_list . (argument (string_literal) @path))
  (#match? @method "^Map(Get|Post|Put|Patch|Delete|Methods)$")) @route.aspnet
(invocation_expression
  function: (member_access_expression name: (identifier) @method)
  arguments: (argument_list . (argument (string_literal) @path) . (argument (identifier) @handler))
  (#match? @method "^Map(Get|Post|Put|Patch|Delete|Methods)$")) @route.aspnet
; A lambda written in the call is the route's own handler: app.MapGet("/path", () => ...)
(invocation_expression
  function: (member_access_expression name: (identifier) @method)
  arguments: (argument_list . (argument (string_literal) @path) . (argument (lambda_expression) @block))
  (#match? @method "^Map(Get|Post|Put|Patch|Delete|Methods)$")) @route.aspnet
; app.MapMethods("/path", [HttpMethods.Options], handler): the methods come before the handler
(invocation_expression
  function: (member_access_expression name: (identifier) @method)
  arguments: (argument_list . (argument (string_literal) @path) . (argument) . (argument (identifier) @handler))
  (#eq? @method "MapMethods")) @route.aspnet
(invocation_expression
  function: (member_access_expression name: (identifier) @method)
  arguments: (argument_list . (argument (string_literal) @path) . (argument) . (argument (lambda_expression) @block))
  (#eq? @method "MapMethods")) @route.aspnet
; ... called on a route group: var api = app.MapGroup("api/orders"); api.MapGet("{id:int}", GetOrder)
(invocation_expression
  function: (member_access_expression name: (identifier) @_map_group)
  arguments: (argument_list . (argument (string_literal) @prefix))
  (#eq? @_map_group "MapGroup")) @group
;
; gRPC: app.MapGrpcService<GreeterService>() serves the Greeter service, implemented by GreeterService
(invocation_expression
  function: (member_access_expression name: (generic_name (identifier) @_map (type_argument_list . (identifier) @path @handler .)))
  (#eq? @_map "MapGrpcService")
  (#set! strip "Service$")
  (#set! entry_type "rpc_service")) @route.grpc
;
; Tasks: a hosted service (a class extending BackgroundService), named by its class, its ExecuteAsync the handler;
; a Hangfire recurring job, RecurringJob.AddOrUpdate("report", () => ..., Cron.Daily), named by its id; an Azure
; Function run by a timer, a queue or another service ([Function("Cleanup")] or [FunctionName("Cleanup")] on a method
; with a [TimerTrigger(...)], [QueueTrigger(...)] ... parameter), named by the function's name
(class_declaration name: (identifier) @path (base_list [(identifier) (qualified_name)] @_base)
  body: (declaration_list (method_declaration name: (identifier) @_execute) @route.hosted-service)
  (#match? @_base "(^|[.])BackgroundService$") (#eq? @_execute "ExecuteAsync")
  (#set! entry_type "task"))
(invocation_expression
  function: (member_access_expression expression: (identifier) @_recurring name: [(identifier) @_add (generic_name (identifier) @_add)])
  arguments: (argument_list . (argument (string_literal) @path) . (argument (lambda_expression) @block))
  (#eq? @_recurring "RecurringJob") (#eq? @_add "AddOrUpdate")
  (#set! entry_type "task")) @route.hangfire
(method_declaration
  (attribute_list (attribute name: (identifier) @_function (attribute_argument_list . (attribute_argument (string_literal) @path))))
  parameters: (parameter_list (parameter (attribute_list (attribute name: (identifier) @_trigger))))
  (#match? @_function "^Function(Name)?$")
  (#match? @_trigger "^(Timer|Queue|ServiceBus|EventHub|EventGrid|Blob|CosmosDB|Kafka|RabbitMQ)Trigger$")
  (#set! entry_type "task")) @route.azure-functions
; ... or by an HTTP request ([HttpTrigger(AuthorizationLevel.Function, "get", "post", Route = "orders/{id}")]): a route
; under the host's /api, at its Route or else the function's name, answering the methods listed (none: every method);
; one pattern per part, read together
(method_declaration
  (attribute_list (attribute name: (identifier) @_function (attribute_argument_list . (attribute_argument (string_literal) @path))))
  parameters: (parameter_list (parameter (attribute_list (attribute name: (identifier) @_trigger))))
  (#match? @_function "^Function(Name)?$") (#eq? @_trigger "HttpTrigger") (#set! route "api/{}")) @route.azure-functions
(method_declaration
  (attribute_list (attribute name: (identifier) @_function))
  parameters: (parameter_list (parameter (attribute_list (attribute name: (identifier) @_trigger
    (attribute_argument_list (attribute_argument name: (identifier) @_route (string_literal) @path))))))
  (#match? @_function "^Function(Name)?$") (#eq? @_trigger "HttpTrigger") (#eq? @_route "Route") (#set! route "api/{}")
  (#set! needs "_route")) @route.azure-functions
(method_declaration
  (attribute_list (attribute name: (identifier) @_function))
  parameters: (parameter_list (parameter (attribute_list (attribute name: (identifier) @_trigger
    (attribute_argument_list (attribute_argument !name (string_literal) @method))))))
  (#match? @_function "^Function(Name)?$") (#eq? @_trigger "HttpTrigger")) @route.azure-functions
;
; Razor Pages: a page model's handler methods (On, a verb, a handler's name, perhaps Async) serve its file's route
(method_declaration name: (identifier) @method (#match? @method "^On(Get|Post|Put|Patch|Delete)[A-Za-z0-9_]*$")) @route.file
;
; Hot Chocolate's GraphQL types, in a file that uses HotChocolate: the public methods of a class named Query, Mutation
; or Subscription, of one marked [QueryType], [MutationType] or [SubscriptionType], or of one that extends such a type
; ([ExtendObjectType(OperationTypeNames.Query)], [ExtendObjectType("Query")]) are its fields (rpc_service), named as
; Hot Chocolate names them: GetBookAsync is Query.book
(using_directive [(identifier) (qualified_name)] @uses.hotchocolate (#match? @uses.hotchocolate "^HotChocolate(\\.|$)"))
(class_declaration name: (identifier) @_root
  body: (declaration_list (method_declaration (modifier) @_public name: (identifier) @path) @route.hotchocolate)
  (#match? @_root "^(Query|Mutation|Subscription)$") (#eq? @_public "public")
  (#set! requires "hotchocolate") (#set! strip "^Get(?=[A-Z])|Async$") (#set! route "{@_root}.{lower}")
  (#set! entry_type "rpc_service"))
(class_declaration (attribute_list (attribute name: (identifier) @_root))
  body: (declaration_list (method_declaration (modifier) @_public name: (identifier) @path) @route.hotchocolate)
  (#match? @_root "^(QueryType|MutationType|SubscriptionType)$") (#eq? @_public "public")
  (#set! requires "hotchocolate") (#set! strip "^Get(?=[A-Z])|Async$") (#set! route "{@_root~Query|Mutation|Subscription}.{lower}")
  (#set! entry_type "rpc_service"))
(class_declaration
  (attribute_list (attribute name: (identifier) @_extend (attribute_argument_list
    (attribute_argument [(member_access_expression name: (identifier) @_root) (string_literal) @_root]))))
  body: (declaration_list (method_declaration (modifier) @_public name: (identifier) @path) @route.hotchocolate)
  (#eq? @_extend "ExtendObjectType") (#eq? @_public "public")
  (#set! requires "hotchocolate") (#set! strip "^Get(?=[A-Z])|Async$") (#set! route "{@_root}.{lower}")
  (#set! entry_type "rpc_service"))
;
; SignalR: app.MapHub<ChatHub>("/chat") serves the hub ChatHub at /chat
(invocation_expression
  function: (member_access_expression name: (generic_name (identifier) @_map_hub (type_argument_list (identifier) @handler)))
  arguments: (argument_list . (argument (string_literal) @path))
  (#eq? @_map_hub "MapHub")) @route.signalr
