(function_declaration name: (identifier) @name (#eq? @name "main")) @main
; The file serves HTTP: it imports net/http or a web framework (gin, echo, chi, gorilla/mux, fiber,
; httprouter, hertz, iris, beego, go-zero's rest). A router's method is a route only in such a file.
(import_spec path: (interpreted_string_literal) @uses.http
  (#match? @uses.http "^\"(net/http|github\\.com/(gin-gonic/gin|labstack/echo|go-chi/chi|gorilla/mux|gofiber/fiber|julienschmidt/httprouter|cloudwego/hertz|kataras/iris|beego/beego|astaxie/beego|zeromicro/go-zero/rest))([/\"])"))
; ... and which framework its routes are of (net/http's are "go"): the first of these the file imports
(import_spec path: (interpreted_string_literal) @uses.gin (#match? @uses.gin "^\"github\\.com/gin-gonic/gin([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.echo (#match? @uses.echo "^\"github\\.com/labstack/echo([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.chi (#match? @uses.chi "^\"github\\.com/go-chi/chi([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.gorilla (#match? @uses.gorilla "^\"github\\.com/gorilla/mux([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.fiber (#match? @uses.fiber "^\"github\\.com/gofiber/fiber([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.httprouter (#match? @uses.httprouter "^\"github\\.com/julienschmidt/httprouter([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.hertz (#match? @uses.hertz "^\"github\\.com/cloudwego/hertz([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.iris (#match? @uses.iris "^\"github\\.com/kataras/iris([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.beego (#match? @uses.beego "^\"github\\.com/(beego/beego|astaxie/beego)([/\"])"))
; net/http, gin, echo, chi, gorilla/mux: r.GET("/path", h), mux.HandleFunc("/path", h),
; mux.HandleFunc("GET /items/{id}", h) (Go 1.22 patterns): a path from the root and a handler last
; (middlewares may come between); a call with the path alone is no route (a sync.Map's Delete("/foo")).
(call_expression
  function: (selector_expression field: (field_identifier) @method)
  arguments: (argument_list . (interpreted_string_literal) @path (_) .)
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any|Get|Post|Put|Patch|Delete|Head|Options|HandleFunc|Handle)$")
  (#match? @path "^\"([A-Z]+ +)?/")
  (#set! requires "http")
  (#set! when_used "gin echo chi gorilla fiber httprouter hertz iris beego")) @route.go
; ... with the handler named: r.GET("/path", showOrder), r.GET("/path", h.Show), r.GET("/path", auth(show)),
; or written there: r.GET("/path", func(c *gin.Context) { ... })
(call_expression
  function: (selector_expression field: (field_identifier) @method)
  arguments: (argument_list . (interpreted_string_literal) @path [(identifier) @handler (selector_expression) @handler (call_expression) @handler (func_literal) @block] .)
  (#match? @method "^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|Any|Get|Post|Put|Patch|Delete|Head|Options|HandleFunc|Handle)$")
  (#match? @path "^\"([A-Z]+ +)?/")
  (#set! requires "http")
  (#set! when_used "gin echo chi gorilla fiber httprouter hertz iris beego")) @route.go
; net/http's own http.HandleFunc("/health", h) and http.Handle("/metrics", h): net/http's routes, whatever
; framework the file also uses
(call_expression
  function: (selector_expression operand: (identifier) @_http field: (field_identifier) @method)
  arguments: (argument_list . (interpreted_string_literal) @path (_) .)
  (#eq? @_http "http") (#match? @method "^Handle(Func)?$")
  (#match? @path "^\"([A-Z]+ +)?/")
  (#set! requires "http")) @route.go
(call_expression
  function: (selector_expression operand: (identifier) @_http field: (field_identifier) @method)
  arguments: (argument_list . (interpreted_string_literal) @path [(identifier) @handler (selector_expression) @handler (call_expression) @handler (func_literal) @block] .)
  (#eq? @_http "http") (#match? @method "^Handle(Func)?$")
  (#match? @path "^\"([A-Z]+ +)?/")
  (#set! requires "http")) @route.go
; gorilla/mux: r.HandleFunc("/books/{id}", h).Methods("GET", http.MethodPost): the route above with its methods
(call_expression
  function: (selector_expression
    operand: (call_expression
      function: (selector_expression field: (field_identifier) @_handle)
      arguments: (argument_list . (interpreted_string_literal) @path)) @route.go
    field: (field_identifier) @_methods)
  arguments: (argument_list [(interpreted_string_literal) @method (selector_expression field: (field_identifier) @method)])
  (#match? @_handle "^Handle(Func)?$") (#eq? @_methods "Methods")
  (#match? @path "^\"/")
  (#set! requires "http")
  (#set! when_used "gorilla"))
; chi: a router a function makes mounted under a prefix, r.Mount("/admin", adminRouter()): the routes the function
; called makes serve under it (rag/analysis/entrypoints/mounts.py)
(call_expression
  function: (selector_expression field: (field_identifier) @_mount)
  arguments: (argument_list . (interpreted_string_literal) @prefix . (call_expression function: (_) @mounted) .)
  (#eq? @_mount "Mount")
  (#match? @prefix "^\"/")) @mount.nested
; chi's sub-routers: r.Route("/articles", func(r chi.Router) { r.Get("/", list) }) serves /articles/
(call_expression
  function: (selector_expression field: (field_identifier) @_route)
  arguments: (argument_list . (interpreted_string_literal) @prefix . (func_literal) .)
  (#eq? @_route "Route")
  (#match? @prefix "^\"/")) @prefixed
; gin's, echo's and fiber's route groups: v1 := r.Group("/v1"); v1.GET("/items", h) serves /v1/items; gorilla/mux's
; s := r.PathPrefix("/admin").Subrouter()
(call_expression
  function: (selector_expression field: (field_identifier) @_group)
  arguments: (argument_list . (interpreted_string_literal) @prefix)
  (#match? @_group "^(Group|PathPrefix|Party)$")
  (#match? @prefix "^\"/")) @group
; go-zero: rest.Route{Method: http.MethodGet, Path: "/x", Handler: h}, in AddRoutes([]rest.Route{...}) or
; alone; a route only with all three fields (one pattern per field, read together: fields come in any
; order). A path that is no literal is a route only in the literal given to AddRoute/AddRoutes itself
; (the framework's own code copies routes into literals of computed paths).
(literal_value
  (keyed_element key: (literal_element (identifier) @_path) value: (literal_element (interpreted_string_literal) @path))
  (#eq? @_path "Path")
  (#set! needs "path method _handler")) @route.go-zero
(call_expression
  function: (selector_expression field: (field_identifier) @_add)
  arguments: (argument_list . (composite_literal body: (literal_value
    (keyed_element key: (literal_element (identifier) @_path) value: (literal_element (_) @path))) @route.go-zero))
  (#eq? @_add "AddRoute") (#eq? @_path "Path")
  (#set! needs "path method _handler"))
(call_expression
  function: (selector_expression field: (field_identifier) @_add)
  arguments: (argument_list . (composite_literal body: (literal_value (literal_element (literal_value
    (keyed_element key: (literal_element (identifier) @_path) value: (literal_element (_) @path))) @route.go-zero))))
  (#eq? @_add "AddRoutes") (#eq? @_path "Path")
  (#set! needs "path method _handler"))
(literal_value
  (keyed_element key: (literal_element (identifier) @_method) value: (literal_element [(selector_expression field: (field_identifier) @method) (interpreted_string_literal) @method]))
  (#eq? @_method "Method")
  (#set! needs "path method _handler")) @route.go-zero
(literal_value
  (keyed_element key: (literal_element (identifier) @_handler) value: (literal_element [(identifier) @handler (selector_expression) @handler (call_expression) @handler (func_literal) @block]))
  (#eq? @_handler "Handler")
  (#set! needs "path method _handler")) @route.go-zero
; ... under server.AddRoutes(routes, rest.WithPrefix("/api"))
(call_expression
  function: (selector_expression field: (field_identifier) @_add)
  arguments: (argument_list (call_expression
    function: (selector_expression field: (field_identifier) @_with)
    arguments: (argument_list . (interpreted_string_literal) @prefix)))
  (#match? @_add "^AddRoutes?$") (#eq? @_with "WithPrefix")) @prefixed
; gRPC: pb.RegisterGreeterServer(s, &server{}) serves the Greeter service, implemented by server
(call_expression
  function: (selector_expression field: (field_identifier) @path)
  arguments: (argument_list . (_) . (_) @handler .)
  (#match? @path "^Register[A-Za-z0-9_]+Server$")
  (#set! strip "^Register|Server$")
  (#set! entry_type "rpc_service")) @route.grpc
(call_expression
  function: (selector_expression field: (field_identifier) @path)
  arguments: (argument_list . (_) . [
    (unary_expression operand: (composite_literal type: [(type_identifier) (qualified_type)] @handler))
    (call_expression function: (identifier) @_new (#eq? @_new "new") arguments: (argument_list . [(type_identifier) (qualified_type)] @handler .))
  ] @_implementation .)
  (#match? @path "^Register[A-Za-z0-9_]+Server$")
  (#set! strip "^Register|Server$")
  (#set! entry_type "rpc_service")) @route.grpc
; Connect (connect-go): greetv1connect.NewGreetServiceHandler(&GreetServer{}) serves the GreetService, implemented by
; GreetServer (the generated package's name ends with connect)
(call_expression
  function: (selector_expression operand: (identifier) @_package field: (field_identifier) @path)
  arguments: (argument_list . [
    (unary_expression operand: (composite_literal type: [(type_identifier) (qualified_type)] @handler))
    (call_expression function: (identifier) @_new (#eq? @_new "new") arguments: (argument_list . [(type_identifier) (qualified_type)] @handler .))
    (identifier) @handler])
  (#match? @_package "connect$")
  (#match? @path "^New[A-Za-z0-9_]+Handler$")
  (#set! strip "^New|Handler$")
  (#set! entry_type "rpc_service")) @route.connect
; cobra: a command added under another, cmd.AddCommand(remove.NewCmdRemove(f), versionCmd), by the function
; that makes it or the variable that holds it (rag/analysis/entrypoints/mounts.py joins their names)
(call_expression
  function: (selector_expression operand: (identifier) @parent field: (field_identifier) @_add)
  arguments: (argument_list (call_expression function: (_) @mounted))
  (#eq? @_add "AddCommand")) @mount.command
(call_expression
  function: (selector_expression operand: (identifier) @parent field: (field_identifier) @_add)
  arguments: (argument_list (identifier) @mounted)
  (#eq? @_add "AddCommand")) @mount.command
; ... and the variable a command is bound to: var versionCmd = &cobra.Command{...}
(var_spec
  name: (identifier) @mounted
  value: (expression_list (unary_expression operand: (composite_literal
    type: (qualified_type package: (package_identifier) @_cobra name: (type_identifier) @_command))))
  (#eq? @_cobra "cobra") (#eq? @_command "Command")) @mount.command_variable
; cobra: &cobra.Command{Use: "serve [flags]", RunE: runServe}
(composite_literal
  type: (qualified_type package: (package_identifier) @_cobra name: (type_identifier) @_command)
  body: (literal_value (keyed_element key: (literal_element (identifier) @_use) value: (literal_element (interpreted_string_literal) @path)))
  (#eq? @_cobra "cobra") (#eq? @_command "Command") (#eq? @_use "Use")) @command.cobra
(composite_literal
  type: (qualified_type package: (package_identifier) @_cobra name: (type_identifier) @_command)
  body: (literal_value
    (keyed_element key: (literal_element (identifier) @_use) value: (literal_element (interpreted_string_literal) @path))
    (keyed_element key: (literal_element (identifier) @_run) value: (literal_element (identifier) @handler)))
  (#eq? @_cobra "cobra") (#eq? @_command "Command") (#eq? @_use "Use") (#match? @_run "^(Run|RunE)$")) @command.cobra
;
; urfave/cli: a command of an app, &cli.Command{Name: "serve", Action: serve}, or one of a list of them,
; []*cli.Command{{Name: "serve", Action: serve}, ...} (Subcommands too), named by its Name and handled by its Action,
; in a file that imports urfave/cli
(import_spec path: (interpreted_string_literal) @uses.urfave-cli (#match? @uses.urfave-cli "^\"github\\.com/urfave/cli([/\"])"))
(composite_literal
  type: (qualified_type name: (type_identifier) @_command)
  body: (literal_value
    (keyed_element key: (literal_element (identifier) @_name) value: (literal_element (interpreted_string_literal) @path))
    (keyed_element key: (literal_element (identifier) @_action) value: (literal_element [(identifier) @handler (selector_expression) @handler (func_literal) @block]))?)
  (#eq? @_command "Command") (#eq? @_name "Name") (#eq? @_action "Action")
  (#set! requires "urfave-cli")) @command.urfave-cli
(composite_literal
  type: (slice_type element: [(pointer_type (qualified_type name: (type_identifier) @_command)) (qualified_type name: (type_identifier) @_command)])
  body: (literal_value (literal_element (literal_value
    (keyed_element key: (literal_element (identifier) @_name) value: (literal_element (interpreted_string_literal) @path))
    (keyed_element key: (literal_element (identifier) @_action) value: (literal_element [(identifier) @handler (selector_expression) @handler (func_literal) @block]))?) @command.urfave-cli))
  (#eq? @_command "Command") (#eq? @_name "Name") (#eq? @_action "Action")
  (#set! requires "urfave-cli"))
;
; Tasks: an asynq handler of a task type, mux.HandleFunc("email:deliver", h), in a file that imports asynq; a cron
; job, c.AddFunc("@every 1h", h) or c.AddJob("0 30 * * * *", job), in a file that imports robfig/cron
(import_spec path: (interpreted_string_literal) @uses.asynq (#match? @uses.asynq "^\"github\\.com/hibiken/asynq([/\"])"))
(import_spec path: (interpreted_string_literal) @uses.cron (#match? @uses.cron "^\"github\\.com/robfig/cron([/\"])"))
(call_expression
  function: (selector_expression field: (field_identifier) @_handle)
  arguments: (argument_list . (interpreted_string_literal) @path . [(identifier) @handler (selector_expression) @handler (call_expression) @handler (func_literal) @block] .)
  (#match? @_handle "^Handle(Func)?$") (#not-match? @path "^\"([A-Z]+ +)?/")
  (#set! requires "asynq")
  (#set! entry_type "task")) @route.asynq
(call_expression
  function: (selector_expression field: (field_identifier) @_add)
  arguments: (argument_list . (interpreted_string_literal) @path . [(identifier) @handler (selector_expression) @handler (call_expression) @handler (func_literal) @block] .)
  (#match? @_add "^Add(Func|Job)$")
  (#set! requires "cron")
  (#set! entry_type "task")) @route.cron
;
; GraphQL (gqlgen): a method of the generated queryResolver, mutationResolver or subscriptionResolver is the field
; of that root type it resolves: func (r *queryResolver) Todos(...) is Query.todos
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (pointer_type (type_identifier) @_resolver)))
  name: (field_identifier) @path
  (#eq? @_resolver "queryResolver")
  (#set! route "Query.{lower}") (#set! entry_type "rpc_service")) @route.gqlgen
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (pointer_type (type_identifier) @_resolver)))
  name: (field_identifier) @path
  (#eq? @_resolver "mutationResolver")
  (#set! route "Mutation.{lower}") (#set! entry_type "rpc_service")) @route.gqlgen
(method_declaration
  receiver: (parameter_list (parameter_declaration type: (pointer_type (type_identifier) @_resolver)))
  name: (field_identifier) @path
  (#eq? @_resolver "subscriptionResolver")
  (#set! route "Subscription.{lower}") (#set! entry_type "rpc_service")) @route.gqlgen
