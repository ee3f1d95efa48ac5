(function_item name: (identifier) @name (#eq? @name "main")) @main
; rocket's #[launch] function: the main the attribute writes
(
  (attribute_item (attribute (identifier) @_launch))
  .
  (attribute_item)*
  .
  (function_item) @main
  (#eq? @_launch "launch"))
; axum: Router::new().route("/path", get(handler)); the method router's first method and handler
; (get(list).post(create): GET by list), or the closure written there: get(|| async { "ok" })
(call_expression
  function: (field_expression field: (field_identifier) @method)
  arguments: (arguments . (string_literal) @path . (_)? @_how)
  (#eq? @method "route")
  (#not-match? @_how "^(web::|[a-z_]+[(][)])")
  (#match? @path "^\"/")) @route.axum
(call_expression
  function: (field_expression field: (field_identifier) @_route)
  arguments: (arguments . (string_literal) @path . (call_expression function: (identifier) @method
    arguments: (arguments . [(identifier) @handler (scoped_identifier) @handler (closure_expression) @block] .)) .)
  (#eq? @_route "route")
  (#match? @method "^(get|post|put|patch|delete|head|options|any)$")
  (#match? @path "^\"/")) @route.axum
(call_expression
  function: (field_expression field: (field_identifier) @_route)
  arguments: (arguments . (string_literal) @path .
    (call_expression function: (field_expression value: (call_expression function: (identifier) @method
      arguments: (arguments . [(identifier) (scoped_identifier)] @handler .)))) .)
  (#eq? @_route "route")
  (#match? @method "^(get|post|put|patch|delete|head|options|any)$")
  (#match? @path "^\"/")) @route.axum
; poem, in a file that uses poem: Route::new().at("/hello/:name", get(hello)), as axum's .route (the method
; endpoint's first method and handler: get(list).post(create) is GET by list)
(use_declaration argument: (_) @uses.poem (#match? @uses.poem "^poem(::|$)"))
(call_expression
  function: (field_expression field: (field_identifier) @_at)
  arguments: (arguments . (string_literal) @path . (call_expression function: (identifier) @method
    arguments: (arguments . [(identifier) @handler (scoped_identifier) @handler (closure_expression) @block] .)) .)
  (#eq? @_at "at") (#match? @method "^(get|post|put|patch|delete|head|options)$") (#match? @path "^\"/")
  (#set! requires "poem")) @route.poem
(call_expression
  function: (field_expression field: (field_identifier) @_at)
  arguments: (arguments . (string_literal) @path .
    (call_expression function: (field_expression value: (call_expression function: (identifier) @method
      arguments: (arguments . [(identifier) (scoped_identifier)] @handler .)))) .)
  (#eq? @_at "at") (#match? @method "^(get|post|put|patch|delete|head|options)$") (#match? @path "^\"/")
  (#set! requires "poem")) @route.poem
; salvo, in a file that uses salvo: Router::with_path("hello").get(hello), under the paths of the routers it is
; pushed into (Router::with_path("api").push(...)): the chain's root is its path
(use_declaration argument: (_) @uses.salvo (#match? @uses.salvo "^salvo(::|$)"))
(call_expression
  function: (scoped_identifier name: (identifier) @_with_path)
  arguments: (arguments . (string_literal) @path .)
  (#eq? @_with_path "with_path")) @chain_root
(call_expression
  function: (field_expression value: (_) @chained @scoped field: (field_identifier) @method)
  arguments: (arguments . [(identifier) @handler (scoped_identifier) @handler] .)
  (#match? @method "^(get|post|put|patch|delete|head|options)$")
  (#set! requires "salvo")) @route.salvo
; axum: a router nested under a prefix, .nest("/api", users::router()): the routes the function called makes serve
; under it (rag/analysis/entrypoints/mounts.py)
(call_expression
  function: (field_expression field: (field_identifier) @_nest)
  arguments: (arguments . (string_literal) @prefix . (call_expression function: (_) @mounted) .)
  (#match? @_nest "^(nest|nest_service)$")
  (#match? @prefix "^\"/")) @mount.nested
; ... or a router written in place: .nest("/api", Router::new().route("/users", get(list)))
(call_expression
  function: (field_expression field: (field_identifier) @_nest)
  arguments: (arguments . (string_literal) @prefix . (call_expression) .) @prefixed
  (#match? @_nest "^(nest|nest_service)$")
  (#match? @prefix "^\"/"))
; actix-web and rocket: #[get("/path")] on a handler function; rocket's in a file that uses rocket
(
  (attribute_item (attribute (identifier) @method arguments: (token_tree . (string_literal) @path)))
  .
  (attribute_item)*
  .
  (function_item) @route.actix
  (#match? @method "^(get|post|put|patch|delete|head|options)$")
  (#set! when_used "rocket"))
(
  (attribute_item (attribute (scoped_identifier path: (identifier) @_crate name: (identifier) @method) arguments: (token_tree . (string_literal) @path)))
  .
  (attribute_item)*
  .
  (function_item) @route.actix
  (#eq? @_crate "actix_web")
  (#match? @method "^(get|post|put|patch|delete|head|options)$"))
(
  (attribute_item (attribute (scoped_identifier path: (identifier) @_crate name: (identifier) @method) arguments: (token_tree . (string_literal) @path)))
  .
  (attribute_item)*
  .
  (function_item) @route.rocket
  (#eq? @_crate "rocket")
  (#match? @method "^(get|post|put|patch|delete|head|options)$"))
; rocket: .mount("/api", routes![hello, users::list]): the routes those functions handle are under the base (each
; function listed a mount, as actix-web's scoped services are: rag/analysis/entrypoints/mounts.py)
(call_expression
  function: (field_expression field: (field_identifier) @_mount)
  arguments: (arguments . (string_literal) @prefix . (macro_invocation macro: (identifier) @_routes (token_tree) @mounted) .)
  (#eq? @_mount "mount") (#eq? @_routes "routes")) @mount.listed
(use_declaration argument: (_) @uses.rocket (#match? @uses.rocket "^rocket(::|$)"))
(extern_crate_declaration name: (identifier) @uses.rocket (#eq? @uses.rocket "rocket"))
; actix-web: .route("/users", web::get().to(list)) on an App or a web::scope("/api") (under its path, and the paths of the
; scopes it is registered in); web::get, web::scope and web::resource may be imported and called bare (get().to(list))
(call_expression
  function: (field_expression value: (_) @scoped field: (field_identifier) @_route)
  arguments: (arguments . (string_literal) @path .
    (call_expression
      function: (field_expression value: (call_expression function: [(scoped_identifier path: (identifier) @_web name: (identifier) @method) (identifier) @method])
        field: (field_identifier) @_to)
      arguments: (arguments . [(identifier) @handler (scoped_identifier) @handler (closure_expression) @block] .)) .)
  (#eq? @_route "route") (#eq? @_to "to")
  (#match? @method "^(get|post|put|patch|delete|head|trace)$")) @route.actix
; ... and web::resource("/users/{id}").route(web::get().to(show)).route(web::delete().to(remove)): the resource's path
; (web::resource("") is its scope's own)
(call_expression
  function: (field_expression value: (_) @scoped @chained field: (field_identifier) @_route)
  arguments: (arguments .
    (call_expression
      function: (field_expression value: (call_expression function: [(scoped_identifier path: (identifier) @_web name: (identifier) @method) (identifier) @method])
        field: (field_identifier) @_to)
      arguments: (arguments . [(identifier) @handler (scoped_identifier) @handler (closure_expression) @block] .)) .)
  (#eq? @_route "route") (#eq? @_to "to")
  (#match? @method "^(get|post|put|patch|delete|head|trace)$")) @route.actix
(call_expression
  function: [(scoped_identifier name: (identifier) @_resource) (identifier) @_resource]
  arguments: (arguments . (string_literal) @path .)
  (#eq? @_resource "resource") (#match? @path "^\"(/|\"$)")) @chain_root
; actix-web: handlers registered in a scope, web::scope("/api").service(index).service(echo): the routes they handle
; are under its prefix (the scope is the chain's root, @chain_root; rag/analysis/entrypoints/mounts.py)
(call_expression
  function: [(scoped_identifier name: (identifier) @_scope) (identifier) @_scope]
  arguments: (arguments . (string_literal) @path .)
  (#eq? @_scope "scope") (#match? @path "^\"/")) @chain_root
(call_expression
  function: (field_expression value: (call_expression) @chained field: (field_identifier) @_service)
  arguments: (arguments . [(identifier) (scoped_identifier)] @mounted .)
  (#eq? @_service "service")) @mount.scoped
; clap: a #[derive(Parser)] struct is the program's command line (#[command(name = "tool")] names it)
(
  (attribute_item (attribute (identifier) @_derive arguments: (token_tree (identifier) @_parser)))
  .
  (attribute_item)*
  .
  (struct_item) @command.clap
  (#eq? @_derive "derive") (#eq? @_parser "Parser"))
(
  (attribute_item (attribute (identifier) @_derive arguments: (token_tree (identifier) @_parser)))
  .
  (attribute_item)*
  .
  (attribute_item (attribute (identifier) @_command arguments: (token_tree (identifier) @_name . "=" . (string_literal) @path)))
  .
  (attribute_item)*
  .
  (struct_item) @command.clap
  (#eq? @_derive "derive") (#eq? @_parser "Parser") (#match? @_command "^(command|clap)$") (#eq? @_name "name"))
; ... and each variant of a #[derive(Subcommand)] enum is a subcommand, named as clap names it, in kebab case
; (ListAll: list-all)
(
  (attribute_item (attribute (identifier) @_derive arguments: (token_tree (identifier) @_subcommand)))
  .
  (attribute_item)*
  .
  (enum_item body: (enum_variant_list (enum_variant name: (identifier) @path) @command.clap))
  (#eq? @_derive "derive") (#eq? @_subcommand "Subcommand") (#set! route "{kebab}"))
; clap's builder: Command::new("name") in a file that uses clap (std::process::Command::new("git")
; runs a program), or clap::Command::new("name") written out
(use_declaration argument: (_) @uses.clap (#match? @uses.clap "^clap(::|$)"))
(extern_crate_declaration name: (identifier) @uses.clap (#eq? @uses.clap "clap"))
(call_expression
  function: (scoped_identifier path: (identifier) @_command name: (identifier) @_new)
  arguments: (arguments . (string_literal) @path)
  (#match? @_command "^(Command|App)$") (#eq? @_new "new")
  (#set! requires "clap")) @command.clap
(call_expression
  function: (scoped_identifier
    path: (scoped_identifier path: (identifier) @_clap name: (identifier) @_command) name: (identifier) @_new)
  arguments: (arguments . (string_literal) @path)
  (#eq? @_clap "clap") (#match? @_command "^(Command|App)$") (#eq? @_new "new")) @command.clap
; warp, in a file that uses warp (its Filter trait chains filters): a chain of filters from its path to its handler,
; warp::path!("todos" / u64).and(warp::put()).and(json_body()).and_then(handlers::update_todo), or a closure
; written there, .map(|name: String| ...): the pattern finds the path (warp::path!, warp::path("x")); the route and
; methods are what the filters of its chain say (rag.analysis.languages._filter_chain)
(use_declaration argument: (_) @uses.warp (#match? @uses.warp "^warp(::|$)"))
(macro_invocation macro: (scoped_identifier) @_path (#eq? @_path "warp::path") (#set! requires "warp") (#set! filters "warp")) @route.warp
(macro_invocation macro: (identifier) @_path (#eq? @_path "path") (#set! requires "warp") (#set! filters "warp")) @route.warp
(call_expression function: (scoped_identifier) @_path (#eq? @_path "warp::path") (#set! requires "warp") (#set! filters "warp")) @route.warp
