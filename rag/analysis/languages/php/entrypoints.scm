; Laravel: Route::get('/path', [Controller::class, 'action']) or Route::post('/path', 'Controller@action'),
; under Route::prefix('admin')->group(...)
(scoped_call_expression scope: (name) @scope name: (name) @method arguments: (arguments . (argument (string) @path))
  (#eq? @scope "Route")
  (#match? @method "^(get|post|put|patch|delete|options|any|match)$")) @route.laravel
(scoped_call_expression scope: (name) @scope name: (name) @method arguments: (arguments . (argument (string) @path) . (argument (string) @handler))
  (#eq? @scope "Route")
  (#match? @method "^(get|post|put|patch|delete|options|any|match)$")) @route.laravel
; the handler [UserController::class, 'index'] as written, an invokable controller (PlayController::class),
; or the closure written there
(scoped_call_expression scope: (name) @scope name: (name) @method arguments: (arguments . (argument (string) @path) . (argument [
    (array_creation_expression . (array_element_initializer (class_constant_access_expression))) @handler
    (class_constant_access_expression . (name) @handler)
    (anonymous_function) @block (arrow_function) @block]))
  (#eq? @scope "Route")
  (#match? @method "^(get|post|put|patch|delete|options|any|match)$")) @route.laravel
; Route::resource('photos', PhotoController::class): index, create, show, update and destroy
; (with ->only(['index', 'show']) or ->except([...]) chained on it, those actions only)
(member_call_expression
  object: (scoped_call_expression scope: (name) @scope name: (name) @_resource
    arguments: (arguments . (argument (string) @path) . (argument (class_constant_access_expression . (name) @handler)))) @resource.laravel
  name: (name) @_which
  arguments: (arguments . (argument (array_creation_expression (array_element_initializer (string) @only)*)))
  (#eq? @scope "Route") (#match? @_resource "^(api)?[Rr]esource$") (#eq? @_which "only")
  (#set! param "{id}"))
(member_call_expression
  object: (scoped_call_expression scope: (name) @scope name: (name) @_resource
    arguments: (arguments . (argument (string) @path) . (argument (class_constant_access_expression . (name) @handler)))) @resource.laravel
  name: (name) @_which
  arguments: (arguments . (argument (array_creation_expression (array_element_initializer (string) @except)*)))
  (#eq? @scope "Route") (#match? @_resource "^(api)?[Rr]esource$") (#eq? @_which "except")
  (#set! param "{id}"))
(scoped_call_expression scope: (name) @scope name: (name) @_resource arguments: (arguments . (argument (string) @path) . (argument (class_constant_access_expression . (name) @handler)))
  (#eq? @scope "Route") (#match? @_resource "^(api)?[Rr]esource$")
  (#set! param "{id}")) @resource.laravel
(member_call_expression
  object: (scoped_call_expression scope: (name) @_route name: (name) @_prefix arguments: (arguments . (argument (string) @prefix)))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_prefix "prefix") (#eq? @_group "group")) @prefixed
; ... with other settings before or after the prefix: Route::prefix('api')->middleware('api')->group(...),
; Route::middleware('auth')->prefix('admin')->group(...)
(member_call_expression
  object: (member_call_expression
    object: (scoped_call_expression scope: (name) @_route name: (name) @_prefix arguments: (arguments . (argument (string) @prefix))))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_prefix "prefix") (#eq? @_group "group")) @prefixed
(member_call_expression
  object: (member_call_expression object: (member_call_expression
    object: (scoped_call_expression scope: (name) @_route name: (name) @_prefix arguments: (arguments . (argument (string) @prefix)))))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_prefix "prefix") (#eq? @_group "group")) @prefixed
(member_call_expression
  object: (member_call_expression object: (scoped_call_expression scope: (name) @_route)
    name: (name) @_prefix arguments: (arguments . (argument (string) @prefix)))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_prefix "prefix") (#eq? @_group "group")) @prefixed
; ... or Route::group(['prefix' => 'admin'], function () { ... })
(scoped_call_expression scope: (name) @_route name: (name) @_group
  arguments: (arguments . (argument (array_creation_expression (array_element_initializer (string) @_key . (string) @prefix))))
  (#eq? @_route "Route") (#eq? @_group "group") (#match? @_key "^.prefix.$")) @prefixed
; ... Route::controller(OrderController::class)->group(function () { Route::get('/orders/{id}', 'show'); }): an action
; named alone is that controller's method (with other settings between: ->prefix('orders'), ->middleware('auth'))
(member_call_expression
  object: (scoped_call_expression scope: (name) @_route name: (name) @_controller
    arguments: (arguments . (argument (class_constant_access_expression . (name) @controller))))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_controller "controller") (#eq? @_group "group")) @controlled
(member_call_expression
  object: (member_call_expression object: (scoped_call_expression scope: (name) @_route name: (name) @_controller
    arguments: (arguments . (argument (class_constant_access_expression . (name) @controller)))))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_controller "controller") (#eq? @_group "group")) @controlled
(member_call_expression
  object: (member_call_expression object: (member_call_expression object: (scoped_call_expression scope: (name) @_route
    name: (name) @_controller arguments: (arguments . (argument (class_constant_access_expression . (name) @controller))))))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_controller "controller") (#eq? @_group "group")) @controlled
; Slim: $app->get('/path', handler) in a file that uses Slim, under $app->group('/api', function ($group) { ... });
; the handler a class (Action::class), a callable array ([UserController::class, 'index']), a 'Controller:method'
; string, or the closure written there
(namespace_use_clause (qualified_name) @uses.slim (#match? @uses.slim "^\\\\?Slim\\\\"))
(member_call_expression object: (variable_name) name: (name) @method
  arguments: (arguments . (argument [(string) (encapsed_string)] @path) (argument) .)
  (#match? @method "^(get|post|put|patch|delete|options|any)$")
  (#match? @path "^['\"]/")
  (#set! requires "slim")) @route.slim
(member_call_expression object: (variable_name) name: (name) @method
  arguments: (arguments . (argument [(string) (encapsed_string)] @path) (argument [
    (class_constant_access_expression . (name) @handler) (string) @handler (encapsed_string) @handler
    (array_creation_expression . (array_element_initializer (class_constant_access_expression))) @handler
    (anonymous_function) @block (arrow_function) @block]) .)
  (#match? @method "^(get|post|put|patch|delete|options|any)$")
  (#match? @path "^['\"]/")
  (#set! requires "slim")) @route.slim
(member_call_expression object: (variable_name) name: (name) @_group arguments: (arguments . (argument [(string) (encapsed_string)] @prefix))
  (#eq? @_group "group")) @prefixed
; Symfony: #[Route('/path', methods: ['GET'])] or #[Route(path: '/path')] on a controller's method (its handler),
; under the class's #[Route('/prefix')]; one pattern per argument, read together
(method_declaration (attribute_list (attribute_group (attribute (name) @_route parameters: (arguments . (argument . (string) @path)))))
  (#eq? @_route "Route")) @route.symfony
(method_declaration (attribute_list (attribute_group (attribute (name) @_route parameters: (arguments (argument (name) @_path . (string) @path)))))
  (#eq? @_route "Route") (#eq? @_path "path")) @route.symfony
(method_declaration (attribute_list (attribute_group (attribute (name) @_route
    parameters: (arguments (argument (name) @_methods . (array_creation_expression (array_element_initializer (string) @method)+))))))
  (#eq? @_route "Route") (#eq? @_methods "methods")) @route.symfony
(class_declaration (attribute_list (attribute_group (attribute (name) @_route parameters: (arguments . (argument . (string) @prefix)))))
  (#eq? @_route "Route")) @prefixed
; Laravel (and Symfony) console commands: a class extending a Command with `protected $signature = 'mail:send {user}'`
; (or `$name`), or marked `#[AsCommand(name: 'mail:send')]`; the command class is its handler. Symfony's in a file
; that uses Symfony's console and not Laravel's (whose commands may take Symfony's AsCommand attribute too).
(namespace_use_clause (qualified_name) @uses.artisan (#match? @uses.artisan "^\\\\?Illuminate\\\\Console\\\\"))
(namespace_definition name: (namespace_name) @uses.artisan (#match? @uses.artisan "^Illuminate\\\\"))
(namespace_use_clause (qualified_name) @uses.symfony (#match? @uses.symfony "^\\\\?Symfony\\\\Component\\\\Console\\\\"))
(class_declaration (base_clause [(name) @_base (qualified_name (name) @_base .)])
  body: (declaration_list (property_declaration (property_element (variable_name (name) @_property) [(string) (encapsed_string)] @path)))
  (#match? @_base "Command$") (#any-of? @_property "signature" "name")
  (#set! when_used "artisan symfony")) @command.artisan
(class_declaration (attribute_list (attribute_group (attribute (name) @_attribute
  parameters: (arguments . (argument [(string) (encapsed_string)] @path)))))
  (#eq? @_attribute "AsCommand")
  (#set! when_used "artisan symfony")) @command.artisan
;
; Tasks: a Laravel queued job (a class implementing ShouldQueue), named by its class; its handle method the handler
(class_declaration name: (name) @path (class_interface_clause (name) @_queued)
  body: (declaration_list (method_declaration name: (name) @_handle) @route.laravel)
  (#eq? @_queued "ShouldQueue") (#eq? @_handle "handle")
  (#set! entry_type "task"))
;
; CodeIgniter 4, in its routes file (framework_files): $routes->get('news', 'News::index'), the handler a controller's
; method as written ('News::index', 'Admin\Users::index', [News::class, 'show']) or the closure written there
; ($routes->add(...) for every method); under $routes->group('admin', function ($routes) { ... })
(member_call_expression object: (variable_name (name) @_routes) name: (name) @method
  arguments: (arguments . (argument (string) @path) .
    (argument [(string) @handler (array_creation_expression) @handler (anonymous_function) @block (arrow_function) @block]))
  (#eq? @_routes "routes") (#match? @method "^(get|post|put|patch|delete|options|head|add|match)$")) @route.codeigniter
(member_call_expression object: (variable_name (name) @_routes) name: (name) @_group arguments: (arguments . (argument (string) @prefix))
  (#eq? @_routes "routes") (#eq? @_group "group")) @prefixed
