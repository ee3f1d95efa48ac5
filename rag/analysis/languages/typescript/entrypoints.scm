; TypeScript reads JavaScript's entrypoints.scm too (language.toml: extends).
; NestJS: @Get(':id') on a method of a class under @Controller('cats')
(class_body
  (decorator (call_expression function: (identifier) @method arguments: (arguments . (string (string_fragment) @path))))
  .
  (decorator)*
  .
  (method_definition) @route.nestjs
  (#match? @method "^(Get|Post|Put|Patch|Delete|Options|Head|All)$"))
(class_body
  (decorator (call_expression function: (identifier) @method arguments: (arguments)))
  .
  (decorator)*
  .
  (method_definition) @route.nestjs
  (#match? @method "^(Get|Post|Put|Patch|Delete|Options|Head|All)$"))
(export_statement
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (string (string_fragment) @prefix))))
  (#eq? @_c "Controller")) @prefixed
(class_declaration
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (string (string_fragment) @prefix))))
  (#eq? @_c "Controller")) @prefixed
; ... or its options: @Controller({ path: 'cats', version: '1' })
(export_statement
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (object
    (pair key: (property_identifier) @_path value: (string (string_fragment) @prefix))))))
  (#eq? @_c "Controller") (#eq? @_path "path")) @prefixed
(class_declaration
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (object
    (pair key: (property_identifier) @_path value: (string (string_fragment) @prefix))))))
  (#eq? @_c "Controller") (#eq? @_path "path")) @prefixed
; NestJS: RouterModule.register([{ path: 'admin', module: AdminModule, children: [{ path: 'users', module: UsersModule }] }]):
; the controllers a module declares (@Module({ controllers: [...] })) serve under its path, joined to the paths of the
; routes around it (an object of a path and a module is one only inside RouterModule.register; rag/analysis/entrypoints/mounts.py)
; (the object's first pair is its path or its module: a pattern of two pairs anywhere in an object would try every
; pair of a big object's pairs, seconds for an i18n table of thousands)
(object
  . (pair key: (property_identifier) @_path value: (string (string_fragment) @prefix))
  (pair key: (property_identifier) @_module value: (identifier) @mounted)
  (#eq? @_path "path") (#eq? @_module "module")) @mount.module
(object
  . (pair key: (property_identifier) @_module value: (identifier) @mounted)
  (pair key: (property_identifier) @_path value: (string (string_fragment) @prefix))
  (#eq? @_path "path") (#eq? @_module "module")) @mount.module
(export_statement
  (decorator (call_expression function: (identifier) @_m arguments: (arguments (object
    (pair key: (property_identifier) @_controllers value: (array (identifier) @mounted))))))
  declaration: (class_declaration name: (type_identifier) @parent)
  (#eq? @_m "Module") (#eq? @_controllers "controllers")) @mount.controllers
(class_declaration
  (decorator (call_expression function: (identifier) @_m arguments: (arguments (object
    (pair key: (property_identifier) @_controllers value: (array (identifier) @mounted))))))
  name: (type_identifier) @parent
  (#eq? @_m "Module") (#eq? @_controllers "controllers")) @mount.controllers
;
; NestJS's URI versioning: app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' }) puts the application's
; routes under /v1 (rag/analysis/entrypoints/mounts.py); a controller's routes under its version,
; @Controller({ path: 'cats', version: '2' }), a route under its own, @Version('3')
(call_expression
  function: (member_expression property: (property_identifier) @_enable)
  arguments: (arguments . (object) @options)
  (#eq? @_enable "enableVersioning")) @mount.versioning
(export_statement
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (object
    (pair key: (property_identifier) @_version value: (string (string_fragment) @version))))))
  (#eq? @_c "Controller") (#eq? @_version "version")) @versioned
(class_declaration
  (decorator (call_expression function: (identifier) @_c arguments: (arguments . (object
    (pair key: (property_identifier) @_version value: (string (string_fragment) @version))))))
  (#eq? @_c "Controller") (#eq? @_version "version")) @versioned
(class_body
  (decorator (call_expression function: (identifier) @_v arguments: (arguments . (string (string_fragment) @version))))
  .
  (decorator)*
  .
  (method_definition) @versioned
  (#eq? @_v "Version"))
;
; Tasks (NestJS): a method run on a schedule (@Cron('0 * * * *'), @Interval(5000), @Timeout(1000)), named by itself;
; a queue's processor (@Process('transcode') of Bull), a listener of an event (@OnEvent('order.created')) or of a
; microservice's messages (@EventPattern('order_created'), @MessagePattern('sum')), named by its name when given
(class_body
  (decorator (call_expression function: (identifier) @_task))
  .
  (decorator)*
  .
  (method_definition) @route.nestjs
  (#match? @_task "^(Cron|Interval|Timeout|Process)$")
  (#set! entry_type "task"))
(class_body
  (decorator (call_expression function: (identifier) @_task arguments: (arguments . (string (string_fragment) @path))))
  .
  (decorator)*
  .
  (method_definition) @route.nestjs
  (#match? @_task "^(Process|OnEvent|EventPattern|MessagePattern)$")
  (#set! entry_type "task"))
; ... and a microservice's pattern written as an object, as NestJS's documentation writes it, @MessagePattern({ cmd:
; 'sum' }): named by its first pair's value
(class_body
  (decorator (call_expression function: (identifier) @_task arguments: (arguments . (object . (pair value: (string (string_fragment) @path))))))
  .
  (decorator)*
  .
  (method_definition) @route.nestjs
  (#match? @_task "^(EventPattern|MessagePattern)$")
  (#set! entry_type "task"))
;
; GraphQL (NestJS, TypeGraphQL): @Query(() => [Recipe]), @Mutation(...) or @Subscription(...) on a resolver's method is
; the field of that root type the method is named for: Query.recipes (TypeGraphQL's in a file that imports type-graphql)
(import_statement source: (string (string_fragment) @uses.type-graphql) (#eq? @uses.type-graphql "type-graphql"))
(class_body
  (decorator (call_expression function: (identifier) @_root))
  .
  (decorator)*
  .
  (method_definition name: (property_identifier) @path) @route.nestjs
  (#match? @_root "^(Query|Mutation|Subscription)$")
  (#set! route "{@_root}.{}") (#set! entry_type "rpc_service") (#set! when_used "type-graphql"))
;
; Socket.IO (javascript/entrypoints.scm): a connection's listener whose parameters are TypeScript's, typed or not,
; io.on('connection', (socket: Socket) => { socket.on('chat message', handler) })
(call_expression
  function: (member_expression property: (property_identifier) @_on_connection)
  arguments: (arguments . (string (string_fragment) @_connection) . (_
    [parameters: (formal_parameters . (required_parameter pattern: (identifier) @_socket)) parameter: (identifier) @_socket]
    body: (statement_block (expression_statement (call_expression
      function: (member_expression object: (identifier) @_listener property: (property_identifier) @_on)
      arguments: (arguments . (string (string_fragment) @path) . [(identifier) @handler (member_expression) @handler (function_expression) @block (arrow_function) @block] .)) @route.socketio))))
  (#eq? @_on_connection "on") (#eq? @_connection "connection") (#eq? @_on "on") (#eq? @_listener @_socket)
  (#not-match? @path "^(disconnect|disconnecting|error)$")
  (#set! requires "socketio") (#set! entry_type "rpc_service"))
