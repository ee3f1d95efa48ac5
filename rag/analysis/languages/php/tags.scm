; Names start at the namespace (Slim\Routing\RouteResolver is Slim.Routing.RouteResolver).
(namespace_definition name: (namespace_name) @package) @namespace
