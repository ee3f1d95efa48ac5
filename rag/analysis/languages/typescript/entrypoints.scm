; Express, Koa routers and Fastify: app.get('/path', handler) on an app or router object, a path from the root
(call_expression
  function: (member_expression object: (identifier) @app property: (property_identifier) @method)
  arguments: (arguments . (string (string_fragment) @path))
  (#match? @app "^(app|router|server|api|routes|fastify|r)$")
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")
  (#match? @path "^/")) @route.express
