; Laravel: Route::get('/path', [Controller::class, 'action']) or Route::post('/path', 'Controller@action'),
; under Route::prefix('admin')->group(...)
(scoped_call_expression scope: (name) @scope name: (name) @method arguments: (arguments . (argument (string) @path))
  (#eq? @scope "Route")
  (#match? @method "^(get|post|put|patch|delete|options|any|match)$")) @route.laravel
(scoped_call_expression scope: (name) @scope name: (name) @method arguments: (arguments . (argument (string) @path) . (argument (string) @handler))
  (#eq? @scope "Route")
  (#match? @method "^(get|post|put|patch|delete|options|any|match)$")) @route.laravel
(scoped_call_expression scope: (name) @scope name: (name) @method arguments: (arguments . (argument (string) @path) . (argument (array_creation_expression . (array_element_initializer (class_constant_access_expression . (name) @handler)))))
  (#eq? @scope "Route")
  (#match? @method "^(get|post|put|patch|delete|options|any|match)$")) @route.laravel
; Route::resource('photos', PhotoController::class): index, create, show, update and destroy
(scoped_call_expression scope: (name) @scope name: (name) @_resource arguments: (arguments . (argument (string) @path) . (argument (class_constant_access_expression . (name) @handler)))
  (#eq? @scope "Route") (#match? @_resource "^(api)?[Rr]esource$")
  (#set! param "{id}")) @resource.laravel
(member_call_expression
  object: (scoped_call_expression scope: (name) @_route name: (name) @_prefix arguments: (arguments . (argument (string) @prefix)))
  name: (name) @_group
  (#eq? @_route "Route") (#eq? @_prefix "prefix") (#eq? @_group "group")) @prefixed
