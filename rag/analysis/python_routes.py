"""Python web frameworks whose routes are calls in a table rather than decorators: aiohttp, Starlette, Falcon
and Tornado.

Each call below, in a file that imports the framework, is a ``RouteRegistration`` of ``method`` the framework's
name (``rag.analysis.entrypoints.web`` resolves its handler and says its methods):

- aiohttp: ``web.get('/path', handler)`` (``post``, ``put`` ..., ``web.route('GET', '/path', h)``,
  ``web.view('/path', View)``) in an ``app.add_routes([...])`` table, and ``app.router.add_get('/path', h)``
  (``add_post`` ..., ``add_route('GET', '/path', h)``, ``add_view('/path', View)``);
- Starlette: ``Route('/path', endpoint, methods=[...])`` and ``WebSocketRoute('/ws', endpoint)``, under the paths
  of the ``Mount('/users', routes=[...])`` calls they are written in;
- Falcon: ``app.add_route('/things', ThingsResource())``: the resource's responders (``on_get``) its methods;
- Tornado: each ``(r"/story/([0-9]+)", StoryHandler)`` or ``url(...)`` of the handlers an ``Application([...])``
  is made with.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Set as AbstractSet

from rag.analysis.facts import RouteRegistration, http_methods

ROUTE_TABLE_PACKAGES = frozenset({"aiohttp", "starlette", "falcon", "tornado"})
AIOHTTP_VERBS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})
STARLETTE_ROUTES = frozenset({"Route", "WebSocketRoute", "Mount"})


def route_tables(
    node: ast.Call, raw: str, names: Mapping[str, str], packages: AbstractSet[str], literal: Callable[[ast.AST | None], object],
    dotted_name: Callable[[ast.AST], str | None],
) -> Iterator[tuple[ast.Call, RouteRegistration | None]]:
    """The routes a call written ``raw`` registers, each with the call that registers it (the ``Route`` and
    ``Mount`` calls a ``Mount`` lists come with their own, a ``Mount`` with no registration); ``names`` is what the file's imported names stand for (``web`` ->
    ``aiohttp.web``), ``packages`` the top-level packages it imports. The registrations' ``scope`` and
    ``class_scope`` are the caller's to fill in."""
    head, _, attr = raw.rpartition(".")
    source = names.get(raw.split(".", 1)[0], "")
    if "aiohttp" in packages and (source.startswith("aiohttp") or head.endswith("router")):
        yield from _aiohttp(node, head, attr, literal, dotted_name)
    elif source.startswith("starlette") and (attr or raw) in STARLETTE_ROUTES:
        yield from _starlette(node, "", literal, dotted_name)
    elif "falcon" in packages and attr == "add_route" and len(node.args) > 1:
        if isinstance(route := literal(node.args[0]), str):
            resource = node.args[1]
            view = dotted_name(resource.func if type(resource) is ast.Call else resource)
            yield node, _registration("falcon", route, view, None, node)
    elif "tornado" in packages and (attr or raw) == "Application" and node.args and type(node.args[0]) is ast.List:
        for element in node.args[0].elts:
            written = element.args if type(element) is ast.Call and dotted_name(element.func) in ("url", "tornado.web.url") else (
                element.elts if type(element) is ast.Tuple else []
            )
            if len(written) > 1 and isinstance(route := literal(written[0]), str):
                yield node, _registration("tornado", route, dotted_name(written[1]), None, element)


def _aiohttp(
    node: ast.Call, head: str, attr: str, literal: Callable[[ast.AST | None], object], dotted_name: Callable[[ast.AST], str | None],
) -> Iterator[tuple[ast.Call, RouteRegistration]]:
    arguments = node.args
    # ``app.router.add_get(...)``, or ``web.get(...)`` on the module itself.
    verb = attr.removeprefix("add_") if head.endswith("router") else attr if "." not in head else ""
    if verb in AIOHTTP_VERBS and len(arguments) > 1:
        methods: tuple[str, ...] | None = (verb.upper(),)
        route, view = literal(arguments[0]), arguments[1]
    elif verb == "route" and len(arguments) > 2:
        given = literal(arguments[0])
        methods = (given.upper(),) if isinstance(given, str) and given != "*" else None
        route, view = literal(arguments[1]), arguments[2]
    elif verb == "view" and len(arguments) > 1:
        methods, route, view = None, literal(arguments[0]), arguments[1]
    else:
        return
    if isinstance(route, str):
        yield node, _registration("aiohttp", route, dotted_name(view), methods, node)


def _starlette(
    node: ast.Call, prefix: str, literal: Callable[[ast.AST | None], object], dotted_name: Callable[[ast.AST], str | None],
    depth: int = 0,
) -> Iterator[tuple[ast.Call, RouteRegistration | None]]:
    """A Starlette route, or the routes of a ``Mount``'s list under its path, each with its own call (a ``Mount``
    with none: it registers nothing of its own), so the caller reads each call once."""
    kind = dotted_name(node.func) or ""
    kind = kind.rsplit(".", 1)[-1]
    path = literal(node.args[0]) if node.args else next((literal(k.value) for k in node.keywords if k.arg == "path"), None)
    if not isinstance(path, str) or depth > 16:
        return
    whole = prefix.rstrip("/") + path if prefix else path
    if kind == "Mount":
        yield node, None
        routes = next((k.value for k in node.keywords if k.arg == "routes"), node.args[2] if len(node.args) > 2 else None)
        for element in routes.elts if type(routes) is ast.List else ():
            if type(element) is ast.Call and (dotted_name(element.func) or "").rsplit(".", 1)[-1] in STARLETTE_ROUTES:
                yield from _starlette(element, whole, literal, dotted_name, depth + 1)
        return
    endpoint = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "endpoint"), None)
    given = next((literal(k.value) for k in node.keywords if k.arg == "methods"), None)
    methods = ("WEBSOCKET",) if kind == "WebSocketRoute" else http_methods(given)
    yield node, _registration("starlette", whole or "/", dotted_name(endpoint) if endpoint is not None else None, methods, node)


def _registration(framework: str, route: str, view: str | None, methods: tuple[str, ...] | None, node: ast.AST) -> RouteRegistration:
    return RouteRegistration(framework, "", route, view, methods, "", None, node.lineno, getattr(node, "end_lineno", None) or node.lineno)
