"""Django REST framework: the routes a router makes of the viewsets registered on it.

``router = DefaultRouter()``, ``router.register(r"users", UserViewSet)`` and
``path("api/", include(router.urls))`` (or ``urlpatterns += router.urls``)
serve ``/api/users/`` (the viewset's ``list`` and ``create``) and
``/api/users/{pk}/`` (``{slug}`` for a viewset or base with ``lookup_field = "slug"``; ``retrieve``, ``update``, ``partial_update``,
``destroy``), each action the viewset has: defined in its class or a base of
the repository, or given by a base of the framework's (``ModelViewSet`` all
six, ``ReadOnlyModelViewSet`` ``list`` and ``retrieve``, each ``*ModelMixin``
its own); and each ``@action`` method under its ``url_path``
(``/api/users/{pk}/set_password/`` when ``detail=True``). A router no
URLconf includes serves from the root.
"""

from __future__ import annotations

from dataclasses import dataclass

from rag.analysis.entrypoints.context import FinderContext, join_route
from rag.analysis.facts import http_methods
from rag.analysis.records import Entrypoint, Symbol

# The router's conventional actions: (action, method, on one object rather than the collection).
ACTIONS = (
    ("list", "GET", False),
    ("create", "POST", False),
    ("retrieve", "GET", True),
    ("update", "PUT", True),
    ("partial_update", "PATCH", True),
    ("destroy", "DELETE", True),
)
# The framework's bases by name, and the actions each gives a viewset.
FRAMEWORK_BASES = {
    "ModelViewSet": frozenset(action for action, _, _ in ACTIONS),
    "ReadOnlyModelViewSet": frozenset({"list", "retrieve"}),
    "ListModelMixin": frozenset({"list"}),
    "CreateModelMixin": frozenset({"create"}),
    "RetrieveModelMixin": frozenset({"retrieve"}),
    "UpdateModelMixin": frozenset({"update", "partial_update"}),
    "DestroyModelMixin": frozenset({"destroy"}),
}
# The methods the framework's generic class views answer (``ListCreateAPIView``: GET and POST), by name.
GENERIC_VIEWS = {
    "ListAPIView": ("GET",),
    "CreateAPIView": ("POST",),
    "RetrieveAPIView": ("GET",),
    "UpdateAPIView": ("PUT", "PATCH"),
    "DestroyAPIView": ("DELETE",),
    "ListCreateAPIView": ("GET", "POST"),
    "RetrieveUpdateAPIView": ("GET", "PUT", "PATCH"),
    "RetrieveDestroyAPIView": ("GET", "DELETE"),
    "RetrieveUpdateDestroyAPIView": ("GET", "PUT", "PATCH", "DELETE"),
}
# The name a viewset's object is looked up by in its URL: ``lookup_url_kwarg``, else ``lookup_field``, else this.
DETAIL_KWARG = "pk"
FRAMEWORK = "drf"


@dataclass(frozen=True)
class Registration:
    prefix: str
    viewset: str  # the class's qname
    path: str
    line: int


def registrations(context: FinderContext) -> dict[str, list[Registration]]:
    """The viewsets registered on each router of the repository (``router.register("users", UserViewSet)``),
    by the router's qname."""
    found: dict[str, list[Registration]] = {}
    for path, analysis in context.analyses.items():
        facts = analysis.facts
        if facts is None or facts.module is None:
            continue
        for mount in facts.mounts:
            if mount.method != "register" or mount.prefix is None:
                continue
            router = context.target(mount.parent, mount.scope, facts.module)
            viewset = context.target(mount.child, mount.scope, facts.module)
            if router is None or router not in context.names.instances or viewset not in context.names.symbols:
                continue
            found.setdefault(router, []).append(Registration(mount.prefix, viewset, path, mount.line))
    return found


def router_routes(context: FinderContext, router: str, registered: list[Registration], prefix: str) -> None:
    """The routes of a router's registrations under ``prefix`` (where a URLconf includes its ``urls``), each
    ending with a slash unless the router was made with ``trailing_slash=False``."""
    slash = "" if context.names.instances[router].kwarg("trailing_slash") is False else "/"
    for registration in registered:
        collection = join_route(prefix, registration.prefix).rstrip("/") + slash
        kwarg = (
            context.class_string(registration.viewset, "lookup_url_kwarg")
            or context.class_string(registration.viewset, "lookup_field") or DETAIL_KWARG
        )
        detail = f"{collection.rstrip('/')}/{{{kwarg}}}{slash}"
        actions = _actions(context, registration.viewset)
        # A conventional action is declared where the viewset is registered.
        at = (registration.path, registration.line, registration.line)
        for action, method, on_object in ACTIONS:
            if action in actions:
                _add(context, detail if on_object else collection, method, actions[action], at)
        # An ``@action`` is declared by its method.
        for symbol, on_object, url_path, methods in _extra_actions(context, registration.viewset):
            route = f"{(detail if on_object else collection).rstrip('/')}/{url_path}{slash}"
            for method in methods:
                _add(context, route, method, symbol.qname, (symbol.path, symbol.start_line, symbol.end_line))


def _add(context: FinderContext, route: str, method: str, handler: str, at: tuple[str, int, int]) -> None:
    path, start_line, end_line = at
    context.add(path, Entrypoint(
        entry_type="http_route", framework=FRAMEWORK, route_or_command=route, handler=handler, path=path,
        start_line=start_line, end_line=end_line, methods=(method,), handler_raw=handler,
    ))


def _actions(context: FinderContext, viewset: str) -> dict[str, str]:
    """The conventional actions the viewset has, each with what handles it: its method, else the class."""
    names = context.names
    given = frozenset().union(*(FRAMEWORK_BASES.get(base, frozenset()) for base in context.framework_bases(viewset)))
    found: dict[str, str] = {}
    for action, _, _ in ACTIONS:
        member = names.find_member(viewset, action)
        if member is not None:
            found[action] = member
        elif action in given:
            found[action] = viewset
    return found


def generic_view_methods(context: FinderContext, view: str) -> tuple[str, ...]:
    """The methods a class view answers by the framework's generic views it extends (``ListCreateAPIView``)."""
    bases = context.framework_bases(view)
    return tuple(dict.fromkeys(method for base, methods in GENERIC_VIEWS.items() if base in bases for method in methods))


def _extra_actions(context: FinderContext, viewset: str) -> list[tuple[Symbol, bool, str, tuple[str, ...]]]:
    """The viewset's ``@action`` methods: (the method, on one object, its URL path, its methods)."""
    found = []
    for qname, (_, calls) in context.decorators.items():
        symbol = context.names.symbols.get(qname)
        if symbol is None or symbol.parent != viewset:
            continue
        for call in calls:
            if call.target.rsplit(".", 1)[-1] != "action":
                continue
            url_path = call.kwarg("url_path")
            methods = call.kwarg("methods")
            found.append((
                symbol, call.kwarg("detail") is True, url_path if isinstance(url_path, str) else symbol.name,
                http_methods(methods) or ("GET",),
            ))
    return found
