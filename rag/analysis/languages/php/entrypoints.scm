; Laravel: Route::get('/path', ...)
(scoped_call_expression scope: (name) @scope name: (name) @method arguments: (arguments . (argument (string) @path))
  (#eq? @scope "Route")) @route.laravel
