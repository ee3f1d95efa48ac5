; Express, Koa routers and Fastify: app.get('/path', handler)
(call_expression
  function: (member_expression property: (property_identifier) @method)
  arguments: (arguments . (string (string_fragment) @path))
  (#match? @method "^(get|post|put|patch|delete|all|options|head)$")) @route.express
