"""Django URLconfs: every root ``urlpatterns`` walked through ``include()`` into routes and their views; and
Django Channels' ``websocket_urlpatterns`` (the routing its ``URLRouter`` takes) into websocket routes and
their consumers."""

from __future__ import annotations

from collections.abc import Iterable

from rag.analysis.entrypoints.context import FinderContext, class_methods, join_route
from rag.analysis.entrypoints.drf import (
    Registration,
    generic_view_methods,
    registrations,
    router_routes,
)
from rag.analysis.facts import UrlPattern, http_methods
from rag.analysis.names import MAX_DEPTH
from rag.analysis.records import Entrypoint

DJANGO_METHOD_DECORATORS = {
    "require_GET": ("GET",),
    "require_POST": ("POST",),
    "require_safe": ("GET", "HEAD"),
}

# The list Django Channels' routing names by convention (``URLRouter(chat.routing.websocket_urlpatterns)``):
# its routes are websockets, handled by consumers.
WEBSOCKET_URLS = "websocket_urlpatterns"

Trail = tuple[tuple[str, str], ...]
Routers = dict[str, list[Registration]]


def django_urls(context: FinderContext) -> None:
    """Routes of every URLconf that no other one includes, walked from its ``urlpatterns``; then those of
    the REST framework's routers no URLconf includes, from the root."""
    names = context.names
    routers = registrations(context)
    urlconfs = [module for module, facts in names.modules.items() if dict(facts.url_lists).get("urlpatterns")]
    included: set[str] = set()
    for module in urlconfs:
        for pattern in _flatten(dict(names.modules[module].url_lists)["urlpatterns"]):
            target = _include_target(context, pattern, module)
            if target is not None and target[1] == "urlpatterns":
                included.add(target[0])
    walked: set[str] = set()
    for module in urlconfs:
        if module not in included:
            _walk_urls(context, module, "urlpatterns", "", ((module, "urlpatterns"),), routers, walked)
    for router, registered in routers.items():
        if router not in walked:
            router_routes(context, router, registered, "")
    for module, facts in names.modules.items():
        if dict(facts.url_lists).get(WEBSOCKET_URLS):
            _walk_urls(context, module, WEBSOCKET_URLS, "", ((module, WEBSOCKET_URLS),), {}, walked)


def _url_lists(context: FinderContext, module: str) -> dict[str, tuple[UrlPattern, ...]]:
    facts = context.names.modules.get(module)
    return dict(facts.url_lists) if facts is not None else {}


def _include_target(context: FinderContext, pattern: UrlPattern, module: str) -> tuple[str, str] | None:
    """(module, list name) an ``include()`` leads to inside the repository."""
    if pattern.include is None:
        return None
    names = context.names
    if pattern.include_is_module_string:
        found = names.locate(pattern.include)
    else:
        found = names.locate(names.expand(pattern.include, module, module))
    if found is None:
        return None
    kind, qname = found
    if kind == "module" and "urlpatterns" in _url_lists(context, qname):
        return qname, "urlpatterns"
    if kind == "variable":
        owner, name = qname.rsplit(".", 1)
        if name in _url_lists(context, owner):
            return owner, name
    return None


def _flatten(patterns: tuple[UrlPattern, ...]) -> Iterable[UrlPattern]:
    for pattern in patterns:
        yield pattern
        yield from _flatten(pattern.children)


def _walk_urls(
    context: FinderContext, module: str, list_name: str, prefix: str, trail: Trail, routers: Routers, walked: set[str],
) -> None:
    path = context.names.module_paths[module]
    for pattern in _url_lists(context, module).get(list_name, ()):
        _walk_pattern(context, module, path, pattern, prefix, trail, routers, walked)


def _walk_pattern(
    context: FinderContext, module: str, path: str, pattern: UrlPattern, prefix: str, trail: Trail, routers: Routers,
    walked: set[str],
) -> None:
    names = context.names
    piece = pattern.route
    if pattern.function != "path":
        piece = piece.removeprefix("^").removesuffix("$")
    route = join_route(prefix, piece) if piece else (prefix or "/")
    if pattern.children:
        for child in pattern.children:
            _walk_pattern(context, module, path, child, route, trail, routers, walked)
        return
    target = _include_target(context, pattern, module) if pattern.include is not None else None
    if target is not None:
        if target not in trail and len(trail) < MAX_DEPTH:
            _walk_urls(context, target[0], target[1], route, (*trail, target), routers, walked)
        return
    router = context.target(pattern.include.removesuffix(".urls"), module, module) if pattern.include else None
    if router in routers:
        walked.add(router)
        router_routes(context, router, routers[router], route)
        return
    if pattern.view is not None and pattern.view.endswith(".urls"):
        # A Django Ninja API's URLs (``path("api/", api.urls)``): its routes serve under the route.
        api = context.target(pattern.view.removesuffix(".urls"), module, module)
        instance = names.instances.get(api) if api is not None else None
        if instance is not None and instance.callee.rsplit(".", 1)[-1] == "NinjaAPI":
            context.mounts.setdefault(api, []).append(("urls", route, ""))
            return
    handler = None
    methods: tuple[str, ...] = ()
    raw = pattern.include or pattern.view or ""
    if pattern.view is not None:
        if "." in pattern.view and pattern.view.split(".", 1)[0] not in names.top_level.get(module, ()):
            handler = names.located_symbol(pattern.view)
        if handler is None:
            handler = names.resolve(pattern.view, module, module, None)
        if handler is not None:
            methods = _view_methods(context, handler, pattern.is_class_view)
        if pattern.is_class_view:
            raw = f"{pattern.view}.as_view()"
    websocket = trail[0][1] == WEBSOCKET_URLS
    context.add(
        path,
        Entrypoint(
            entry_type="http_route",
            framework="channels" if websocket else "django",
            route_or_command=route,
            handler=handler,
            path=path,
            start_line=pattern.line,
            end_line=pattern.end_line,
            methods=("WEBSOCKET",) if websocket else methods,
            handler_raw=raw,
        ),
    )


def _view_methods(context: FinderContext, handler: str, is_class_view: bool) -> tuple[str, ...]:
    names = context.names
    if is_class_view or names.symbols[handler].kind == "class":
        # The methods it defines (or a base of the repository does), and those of the REST framework's generic
        # views it extends (``ListCreateAPIView``: GET and POST).
        return tuple(dict.fromkeys((*class_methods(names, handler), *generic_view_methods(context, handler))))
    _, calls = context.decorators.get(handler, ("", ()))
    for call in calls:
        name = call.target.rsplit(".", 1)[-1]
        if name in DJANGO_METHOD_DECORATORS:
            return DJANGO_METHOD_DECORATORS[name]
        if name == "require_http_methods" and call.args and (listed := http_methods(call.args[0])) is not None:
            return listed
        if name == "api_view" and call.is_call:
            # The REST framework's function view: the methods it lists (``@api_view(["GET", "POST"])``), else GET.
            return http_methods(call.args[0] if call.args else call.kwarg("http_method_names")) or ("GET",)
    return ()
