"""Flask and FastAPI routes: by decorator (``@app.get``, ``@bp.route``) or by registration call
(``add_url_rule``, ``add_api_route``), under the prefixes of every place a blueprint or router is mounted;
Litestar's decorated handlers and Pyramid's views; the routes of aiohttp's, Starlette's, Falcon's and Tornado's
tables; the events of Socket.IO servers (Flask-SocketIO, python-socketio)."""

from __future__ import annotations

from rag.analysis.entrypoints.context import (
    HTTP_VERBS,
    FinderContext,
    class_methods,
    join_route,
)
from rag.analysis.facts import DecoratorCall, FileFacts, RouteRegistration, http_methods
from rag.analysis.records import Entrypoint, Symbol
from rag.analysis.results import FileAnalysis

ROUTE_DECORATORS = frozenset({"route", "api_route", "websocket", *HTTP_VERBS})


def decorated_route(
    context: FinderContext,
    analysis: FileAnalysis,
    symbol: Symbol,
    call: DecoratorCall,
    attr: str,
    framework: str,
    receiver_qname: str | None,
) -> None:
    route = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("rule", call.kwarg("path"))
    if not isinstance(route, str):
        return
    if attr in HTTP_VERBS:
        methods: tuple[str, ...] = (attr.upper(),)
    elif attr == "websocket":
        methods = ("WEBSOCKET",)
    else:
        given = call.kwarg("methods")
        methods = http_methods(given) or ("GET",)
    prefixes = _route_prefixes(context, receiver_qname, framework)
    for prefix in prefixes:
        context.add(
            analysis.path,
            Entrypoint(
                entry_type="http_route",
                framework=framework,
                route_or_command=join_route(prefix, route),
                handler=symbol.qname,
                path=analysis.path,
                start_line=symbol.start_line,
                end_line=symbol.end_line,
                methods=methods,
                handler_raw=symbol.qname,
            ),
        )


# Litestar's route decorators, imported from ``litestar`` and written bare: ``@get("/")``.
LITESTAR_DECORATORS = frozenset({*HTTP_VERBS, "route", "websocket"})


def litestar_route(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, attr: str) -> None:
    """A Litestar handler: ``@get("/path")`` (a list of paths, a route each; ``path=`` too; ``@route("/x",
    http_method=[...])``), a controller's method under the controller's ``path``."""
    written = call.args[0] if call.args else call.kwarg("path")
    paths = [written] if isinstance(written, str) else [p for p in written if isinstance(p, str)] if isinstance(written, tuple) else ["/"]
    if attr == "route":
        given = call.kwarg("http_method")
        methods = tuple(str(m).upper() for m in (given if isinstance(given, tuple) else (given,)) if m)
    else:
        methods = ("WEBSOCKET",) if attr == "websocket" else (attr.upper(),)
    prefix = (context.class_string(symbol.parent, "path") or "") if symbol.parent else ""
    for path in paths:
        context.add(analysis.path, Entrypoint(
            entry_type="http_route", framework="litestar", route_or_command=join_route(prefix, path) if path.strip("/") else prefix or "/",
            handler=symbol.qname,
            path=analysis.path, start_line=symbol.start_line, end_line=symbol.end_line, methods=methods, handler_raw=symbol.qname,
        ))


def pyramid_view(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall) -> None:
    """A Pyramid view: ``@view_config(route_name='user', request_method='POST')``, at the path the application's
    ``config.add_route('user', '/users/{id}')`` gives the route name; of every method without ``request_method``.
    A method of a class takes what the class's ``@view_defaults(route_name='user')`` says and it does not."""
    defaults = _view_defaults(analysis, symbol.parent) if symbol.parent else {}
    name = call.kwarg("route_name", defaults.get("route_name"))
    path = context.route_names.get(name) if isinstance(name, str) else None
    if path is None:
        return
    methods = http_methods(call.kwarg("request_method", defaults.get("request_method"))) or ()
    context.add(analysis.path, Entrypoint(
        entry_type="http_route", framework="pyramid", route_or_command=path, handler=symbol.qname, path=analysis.path,
        start_line=symbol.start_line, end_line=symbol.end_line, methods=methods, handler_raw=symbol.qname,
    ))


# The packages whose ``Api`` and ``Namespace`` route resource classes (Flask-RESTful's ``Api`` routes none by decorator).
# The connection's own events of a Socket.IO server, not messages its clients send.
SOCKETIO_OWN_EVENTS = frozenset({"connect", "disconnect"})


def socketio_event(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, attr: str) -> None:
    """A Socket.IO server's handler of an event (Flask-SocketIO's or python-socketio's ``@socketio.on("message")``,
    ``@sio.event`` named by its function): a message its clients send, an ``rpc_service`` named by the event."""
    if attr == "on":
        event = call.args[0] if call.args and isinstance(call.args[0], str) else None
    else:
        event = symbol.qname.rsplit(".", 1)[-1]
    if event and event not in SOCKETIO_OWN_EVENTS:
        context.add_handled(analysis.path, symbol, "rpc_service", "socketio", event)


RESTX_PACKAGES = frozenset({"flask_restx", "flask_restplus"})


def restx_maker(context: FinderContext, receiver_qname: str | None) -> str | None:
    """``Namespace`` or ``Api`` when a decorator's receiver is made by that class of Flask-RESTX (or Flask-RESTPlus),
    as its module imports it; None otherwise."""
    instance = context.names.instances.get(receiver_qname) if receiver_qname else None
    if instance is None or (made_by := instance.callee.rsplit(".", 1)[-1]) not in ("Namespace", "Api"):
        return None
    module = receiver_qname.rsplit(".", 1)[0]
    return made_by if context.names.expand(instance.callee, module, module).split(".", 1)[0] in RESTX_PACKAGES else None


def restx_resource(
    context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, made_by: str, receiver_qname: str | None,
) -> None:
    """A Flask-RESTX resource class: ``@ns.route("/<int:id>")`` answering the HTTP methods it defines, under its
    namespace's path (``api.add_namespace(ns, path="/todos")``, else ``/`` and the namespace's name) and the
    API's ``prefix``; ``@api.route("/x")`` under the API's prefix alone."""
    route = call.args[0] if call.args and isinstance(call.args[0], str) else None
    if route is None or receiver_qname is None:
        return
    instance = context.names.instances.get(receiver_qname)
    prefixes = [""]
    if made_by == "Namespace" and instance is not None:
        name = instance.args[0] if instance.args and isinstance(instance.args[0], str) else ""
        own = instance.kwarg("path")
        own = own if isinstance(own, str) else f"/{name}" if name else ""
        mounts = [(prefix, parent) for method, prefix, parent in context.mounts.get(receiver_qname, ()) if method == "add_namespace"]
        prefixes = [
            join_route(_api_prefix(context, parent), prefix if prefix is not None else own) for prefix, parent in mounts
        ] or [own]
    elif instance is not None:
        prefixes = [_api_prefix(context, receiver_qname)]
    for prefix in list(dict.fromkeys(prefixes)):
        context.add(analysis.path, Entrypoint(
            entry_type="http_route", framework="flask", route_or_command=join_route(prefix, route), handler=symbol.qname,
            path=analysis.path, start_line=symbol.start_line, end_line=symbol.end_line,
            methods=class_methods(context.names, symbol.qname), handler_raw=symbol.qname,
        ))


def azure_function(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, attr: str) -> None:
    """An Azure Functions Python function (``app = func.FunctionApp()``): ``@app.route(route="orders/{id}",
    methods=["GET"])`` a route under the host's ``/api`` (at the function's name without ``route``, every method
    without ``methods``); a trigger's (``@app.timer_trigger(...)``, ``@app.queue_trigger(...)``) a task named by
    the function."""
    if attr == "route":
        route = call.kwarg("route", call.args[0] if call.args else None)
        methods = http_methods(call.kwarg("methods")) or ()
        context.add(analysis.path, Entrypoint(
            entry_type="http_route", framework="azure-functions",
            route_or_command=join_route("/api", route if isinstance(route, str) else symbol.name),
            handler=symbol.qname, path=analysis.path, start_line=symbol.start_line, end_line=symbol.end_line,
            methods=methods, handler_raw=symbol.qname,
        ))
    elif attr.endswith("_trigger") or attr == "schedule":
        context.add_handled(analysis.path, symbol, "task", "azure-functions", symbol.name)


def _api_prefix(context: FinderContext, api_qname: str) -> str:
    """The ``prefix`` a Flask-RESTX ``Api(app, prefix="/api")`` serves its namespaces under ("" for none)."""
    instance = context.names.instances.get(api_qname)
    prefix = instance.kwarg("prefix") if instance is not None else None
    return prefix if isinstance(prefix, str) else ""


def _view_defaults(analysis: FileAnalysis, class_qname: str) -> dict[str, object]:
    """The keywords of Pyramid's ``@view_defaults(...)`` on a class of the file (none: empty)."""
    for qname, calls in analysis.facts.decorators if analysis.facts is not None else ():
        if qname == class_qname:
            for call in calls:
                if call.target.rsplit(".", 1)[-1] == "view_defaults":
                    return dict(call.kwargs)
    return {}


def _pyramid_registered_view(context: FinderContext, analysis: FileAnalysis, module: str, registration: RouteRegistration) -> None:
    """Pyramid's ``config.add_view(view, route_name='x')``: the view at the path the application gives the name."""
    path = context.route_names.get(registration.route)
    if path is None or registration.view is None:
        return
    view = registration.view
    handler = view if view in context.names.symbols else context.names.resolve(view, registration.scope, module, registration.class_scope)
    context.add(analysis.path, Entrypoint(
        entry_type="http_route", framework="pyramid", route_or_command=path, handler=handler, path=analysis.path,
        start_line=registration.line, end_line=registration.end_line, methods=registration.methods or (), handler_raw=view,
    ))


def registered_route(context: FinderContext, analysis: FileAnalysis, facts: FileFacts, registration: RouteRegistration) -> None:
    module = facts.module or ""
    if registration.method == "add_view":
        _pyramid_registered_view(context, analysis, module, registration)
        return
    if registration.method == "grpc":
        context.add(analysis.path, Entrypoint(
            entry_type="rpc_service", framework="grpc", route_or_command=registration.route,
            handler=context.names.resolve(registration.view, registration.scope, module, registration.class_scope) if registration.view else None,
            path=analysis.path, start_line=registration.line, end_line=registration.end_line, handler_raw=registration.view or "",
        ))
        return
    if registration.method in TABLE_FRAMEWORKS:
        _table_route(context, analysis, module, registration)
        return
    framework, receiver_qname = context.framework(registration.receiver, registration.scope, module, facts)
    if framework not in ("flask", "fastapi"):
        framework = "flask" if registration.method == "add_url_rule" else "fastapi"
    handler = None
    if registration.view is not None:
        handler = context.names.resolve(registration.view, registration.scope, module, registration.class_scope)
    methods = registration.methods or ("GET",)
    if registration.method == "add_url_rule" and not registration.methods and handler in context.names.symbols:
        # A class view (Flask's ``MethodView``, ``UserAPI.as_view("users")``) answers the HTTP methods it defines.
        methods = class_methods(context.names, handler) or methods
    if registration.method == "add_resource":
        # A Flask-RESTful resource class answers the HTTP methods it defines.
        framework = "flask"
        methods = class_methods(context.names, handler) if handler in context.names.symbols else ()
    for prefix in _route_prefixes(context, receiver_qname, framework):
        context.add(
            analysis.path,
            Entrypoint(
                entry_type="http_route",
                framework=framework,
                route_or_command=join_route(prefix, registration.route),
                handler=handler,
                path=analysis.path,
                start_line=registration.line,
                end_line=registration.end_line,
                methods=methods,
                handler_raw=registration.view or "",
            ),
        )


# The frameworks whose routes are tables of calls (``rag.analysis.python_routes``), and the prefix of the method names
# by which their class handlers answer each HTTP method (Falcon's ``on_get``; the others' ``get``).
TABLE_FRAMEWORKS = {"aiohttp": "", "starlette": "", "falcon": "on_", "tornado": ""}


def _table_route(context: FinderContext, analysis: FileAnalysis, module: str, registration: RouteRegistration) -> None:
    """A route of an aiohttp, Starlette, Falcon or Tornado table: its handler a function, or a class whose
    methods say the HTTP methods it answers when the route says none (GET when neither does)."""
    handler = None
    if registration.view is not None:
        handler = context.names.resolve(registration.view, registration.scope, module, registration.class_scope)
    methods = registration.methods
    if methods is None and handler is not None and context.names.symbols.get(handler, None) is not None:
        responder = TABLE_FRAMEWORKS[registration.method]
        if context.names.symbols[handler].kind == "class":
            methods = tuple(
                verb.upper() for verb in HTTP_VERBS if context.names.find_member(handler, responder + verb) is not None
            )
    context.add(analysis.path, Entrypoint(
        entry_type="http_route", framework=registration.method, route_or_command=registration.route, handler=handler,
        path=analysis.path, start_line=registration.line, end_line=registration.end_line,
        methods=methods if methods is not None else ("GET",), handler_raw=registration.view or "",
    ))


# A router mounted from several places serves under each prefix; past this many, under the first ones. Routers
# included in routers are followed this many levels up.
MAX_PREFIXES = 4
MAX_MOUNT_DEPTH = 8


def _route_prefixes(context: FinderContext, receiver_qname: str | None, framework: str, seen: frozenset[str] = frozenset()) -> list[str]:
    """URL prefixes of a blueprint/router: its own, combined with every place it is mounted, and with the
    prefixes of the blueprints and routers those places are (FastAPI's ``app.include_router(api_router,
    prefix="/api")`` of an ``api_router`` that includes ``items.router`` under ``/items``; Flask's nested blueprints)."""
    if receiver_qname is None or receiver_qname not in context.names.instances:
        return [""]
    instance = context.names.instances[receiver_qname]
    own = instance.kwarg("url_prefix") if framework in ("flask", "sanic", "quart") else instance.kwarg("prefix")
    if framework == "flask" and not isinstance(own, str):
        own = instance.kwarg("prefix")  # Flask-RESTful's ``Api(app, prefix="/api")``
    own = own if isinstance(own, str) else ""
    mounts = [m for m in context.mounts.get(receiver_qname, ()) if m[0] in ("register_blueprint", "include_router", "add_router", "urls")]
    if not mounts:
        return [own]
    prefixes: list[str] = []
    for _, prefix, parent in mounts:
        if framework == "flask":  # register_blueprint(url_prefix=...) replaces the blueprint's own
            mounted = prefix if prefix is not None else own
        else:  # include_router(prefix=...) comes before the router's own
            mounted = join_route(prefix or "", own) if prefix or own else ""
        outer = [""]
        if parent and parent != receiver_qname and parent not in seen and len(seen) < MAX_MOUNT_DEPTH:
            outer = _route_prefixes(context, parent, framework, seen | {receiver_qname})
        prefixes.extend(join_route(above, mounted) if above else mounted for above in outer)
    return list(dict.fromkeys(prefixes))[:MAX_PREFIXES]
