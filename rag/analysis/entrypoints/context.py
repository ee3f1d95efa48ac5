"""What the entrypoint finders share: the repository's names, decorators and mounts, and what was found."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from rag.analysis.facts import DecoratorCall, FileFacts
from rag.analysis.names import MAX_DEPTH, RepositoryNames
from rag.analysis.records import Entrypoint, Symbol
from rag.analysis.results import FileAnalysis

HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
# The frameworks whose routes are a decorator of an app or router object: ``@app.route("/x")``, ``@router.get("/x")``.
WEB_FRAMEWORKS = frozenset({"flask", "fastapi", "sanic", "quart", "bottle", "aiohttp", "ninja", "robyn"})
INSTANCE_FRAMEWORKS = {
    "Flask": "flask",
    "Blueprint": "flask",
    "FastAPI": "fastapi",
    "APIRouter": "fastapi",
    "Sanic": "sanic",
    "Quart": "quart",
    "Bottle": "bottle",
    "RouteTableDef": "aiohttp",
    "NinjaAPI": "ninja",
    "Robyn": "robyn",
    "SubRouter": "robyn",
    # Azure Functions' Python app: its functions run by HTTP requests (``@app.route``) or by triggers.
    "FunctionApp": "azure-functions",
    "Typer": "typer",
    # Flask-SocketIO: its ``@socketio.on("message")`` handlers are the messages clients send.
    "SocketIO": "socketio",
    "Celery": "celery",
    "Huey": "huey", "RedisHuey": "huey", "SqliteHuey": "huey", "MemoryHuey": "huey", "PriorityRedisHuey": "huey",
    "BackgroundScheduler": "apscheduler", "BlockingScheduler": "apscheduler", "AsyncIOScheduler": "apscheduler",
    # Ariadne's bindables of a schema's root types: their fields are its operations.
    "QueryType": "Query", "MutationType": "Mutation", "SubscriptionType": "Subscription",
}


# Classes whose name alone says too little (many libraries have a ``Router``), by where they are imported from.
QUALIFIED_INSTANCE_FRAMEWORKS = {
    "ninja.Router": "ninja",
    # python-socketio's servers (Flask-SocketIO's ``SocketIO`` is named apart, below).
    "socketio.Server": "socketio", "socketio.AsyncServer": "socketio",
}


def class_methods(names: RepositoryNames, qname: str) -> tuple[str, ...]:
    """The HTTP methods a class view or resource answers by the methods it defines (or a base of the
    repository does): ``get`` -> ``GET``."""
    return tuple(verb.upper() for verb in HTTP_VERBS if names.find_member(qname, verb) is not None)


def join_route(*pieces: str) -> str:
    route = ""
    for piece in pieces:
        if piece:
            route = route.rstrip("/") + "/" + piece.lstrip("/")
    return route or "/"


class FinderContext:
    """The repository's names and its decorator and mount tables; entrypoints found so far, per path."""

    def __init__(self, names: RepositoryNames, analyses: dict[str, FileAnalysis]) -> None:
        self.names = names
        self.analyses = analyses
        self.found: dict[str, list[Entrypoint]] = {path: [] for path in analyses}
        self.decorators: dict[str, tuple[str, tuple[DecoratorCall, ...]]] = {}
        self.mounts: dict[str, list[tuple[str, str | None, str]]] = {}
        for analysis in analyses.values():
            facts = analysis.facts
            if facts is None or facts.module is None:
                continue
            for qname, calls in facts.decorators:
                self.decorators[qname] = (facts.module, calls)
            for mount in facts.mounts:
                child = self.target(mount.child, mount.scope, facts.module)
                parent = self.target(mount.parent, mount.scope, facts.module)
                prefix = mount.prefix
                if prefix is None and mount.prefix_name:
                    prefix = self.string_named(mount.prefix_name, mount.scope, facts.module)
                if child is not None:
                    self.mounts.setdefault(child, []).append((mount.method, prefix, parent or ""))

    @functools.cached_property
    def route_names(self) -> dict[str, str]:
        """The paths Pyramid's ``config.add_route(name, path)`` gives route names, by name."""
        return {
            mount.child: mount.prefix
            for analysis in self.analyses.values() if analysis.facts is not None
            for mount in analysis.facts.mounts if mount.method == "add_route" and mount.prefix is not None
        }

    def add(self, path: str, entry: Entrypoint) -> None:
        self.found[path].append(entry)

    def add_handled(self, path: str, symbol: Symbol, entry_type: str, framework: str, name: str) -> None:
        """An entrypoint ``symbol`` handles and declares at its own lines (a task's function, a GraphQL resolver)."""
        self.add(path, Entrypoint(
            entry_type=entry_type,  # type: ignore[arg-type]
            framework=framework,
            route_or_command=name,
            handler=symbol.qname,
            path=path,
            start_line=symbol.start_line,
            end_line=symbol.end_line,
            handler_raw=symbol.qname,
        ))

    def lineage(self, qname: str) -> Iterator[tuple[str, FileFacts | None]]:
        """The class, then its bases inside the repository level by level (``MAX_DEPTH`` levels), each with
        the facts of its module."""
        names = self.names
        seen = {qname}
        level = [qname]
        for _ in range(MAX_DEPTH):
            for each in level:
                symbol = names.symbols.get(each)
                yield each, names.modules.get(symbol.module) if symbol is not None else None
            level = list(dict.fromkeys(base for each in level for base in names.bases.get(each, ()) if base not in seen))
            seen.update(level)
            if not level:
                return

    def framework_bases(self, qname: str) -> set[str]:
        """The last names of the bases outside the repository of the class and of its bases inside it."""
        return {
            reference.raw.rsplit(".", 1)[-1]
            for each, facts in self.lineage(qname)
            for reference in (facts.references if facts is not None else ())
            if reference.kind == "inherits" and reference.scope == each
        }

    def string_named(self, dotted: str, scope: str, module: str) -> str | None:
        """The string a name written in ``scope`` is bound to in the repository: a module's (``API_PREFIX =
        "/api"``), or what a class body gives an attribute read through an instance of the class, or of a
        base of it (``settings.API_V1_STR`` with ``settings = Settings()`` and ``API_V1_STR: str = "/api/v1"``,
        the default a settings class gives); None when not known."""
        owner, _, attribute = self.names.expand(dotted, scope, module).rpartition(".")
        found = self.names.locate(owner) if owner else None
        if found is None:
            return None
        kind, qname = found
        if kind == "module":
            facts = self.names.modules.get(qname)
            strings = facts.class_strings if facts is not None else ()
            return next((value for owner, name, value in strings if owner == qname and name == attribute), None)
        if qname in self.names.instances:
            where = qname.rsplit(".", 1)[0]
            found = self.names.locate(self.names.expand(self.names.instances[qname].callee, where, where))
            if found is not None and found[0] == "symbol":
                return self.class_string(found[1], attribute)
        return None

    def class_string(self, qname: str, name: str) -> str | None:
        """The string the class's body assigns to ``name``, else the nearest of its bases' (Django REST
        framework's ``lookup_field = "slug"``, a Litestar controller's ``path = "/users"``)."""
        for each, facts in self.lineage(qname):
            for owner, attribute, value in facts.class_strings if facts is not None else ():
                if owner == each and attribute == name:
                    return value
        return None

    def target(self, dotted: str, scope: str, module: str) -> str | None:
        found = self.names.locate(self.names.expand(dotted, scope, module))
        return found[1] if found is not None else None

    def framework(self, receiver: str, scope: str, module: str, facts: FileFacts) -> tuple[str, str | None]:
        """The framework behind a decorator's receiver and the receiver's qname when it is ours."""
        expanded = self.names.expand(receiver, scope, module)
        found = self.names.locate(expanded)
        if found is not None and found[0] == "variable" and found[1] in self.names.instances:
            instance = self.names.instances[found[1]]
            owner = found[1].rsplit(".", 1)[0]
            callee = self.names.expand(instance.callee, owner, owner)
            found_framework = QUALIFIED_INSTANCE_FRAMEWORKS.get(callee) or INSTANCE_FRAMEWORKS.get(callee.rsplit(".", 1)[-1], "unknown")
            return found_framework, found[1]
        if found is not None and found[0] == "symbol" and self.is_click_group(found[1]):
            return "click_group", found[1]
        head = expanded.split(".", 1)[0]
        if head in ("click", "typer", "flask", "fastapi", "celery"):
            return head, None
        imported = {binding.target.split(".", 1)[0] for binding in facts.imports}
        for framework in ("fastapi", "flask", "typer", "click", "celery"):
            if framework in imported:
                return framework, None
        return "unknown", None

    def is_click_group(self, qname: str) -> bool:
        module, calls = self.decorators.get(qname, ("", ()))
        return any(call.target.rsplit(".", 1)[-1] == "group" for call in calls)
