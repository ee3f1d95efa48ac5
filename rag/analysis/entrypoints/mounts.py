"""Routes and commands that other files or functions complete: a handler given as a method value, a router
mounted where it is imported, a global prefix, a router nested under a prefix, a command added under another
(``across_files``, run by the repository pass on every language's entrypoints).

- A route's handler given as a method value (Go's ``r.GET("/x", h.Show)``)
  is the method the file's reference to it resolves to (by ``h``'s type).

- Express, Koa and Hono mount a module's router under a prefix where they import it
  (``app.use('/api', api)`` with ``api = require('./routes')``, Hono's ``app.route('/books', books)``
  with ``import { books } from './books'``, and in
  ``routes/index.js`` ``router.use('/users', require('./users'))``): the
  routes of ``routes/users.js`` serve ``/api/users/...``; Fastify registers
  a plugin with its ``prefix`` option alike.
- NestJS's ``app.setGlobalPrefix('api')`` in the application's ``main.ts``
  puts every controller route of the application (the files under the
  folder of that file) under ``/api``; ``RouterModule.register([{ path:
  'admin', module: AdminModule }])`` puts the routes of the controllers
  ``AdminModule`` declares under ``/admin`` (a child route's under its
  parent's path too), below the global prefix.
- axum's ``.nest("/api", api::router())`` and chi's ``r.Mount("/admin", adminRouter())`` put the routes
  the function called makes under the prefix, down the chain of nestings.
- actix-web's ``web::scope("/api").service(index)`` puts the routes ``index``
  handles (its ``#[get("/")]``) under ``/api``; Rocket's ``.mount("/api",
  routes![index, users::list])`` those of each function it lists.
- Fastify's autoload, ``fastify.register(AutoLoad, { dir: path.join(__dirname,
  'routes'), options: { prefix: '/api' } })``, puts the routes of the files
  under ``routes/`` under their folder's path there (``routes/users/index.js``:
  ``/api/users``).
- tRPC's ``createTRPCRouter({ post: postRouter })`` puts the procedures of the
  module ``postRouter`` comes from under ``post``: ``post.hello``, down the
  chain of routers.
- NestJS's URI versioning, ``app.enableVersioning({ type: VersioningType.URI,
  defaultVersion: '1' })`` in the application's ``main.ts``, puts its routes
  under ``/v1``, a controller's ``version: '2'`` or a route's ``@Version('3')``
  under theirs (below the global prefix); without it a version is no part of
  the path.
- Spring Boot's ``server.servlet.context-path`` (Micronaut's and Quarkus's
  likewise) in an application's ``src/main/resources/application.properties``
  or ``.yml`` puts the framework's routes of the application's files under it
  (``rag.analysis.app_config``).
- Play's ``->  /admin  admin.Routes`` in ``conf/routes`` puts the routes of
  ``conf/admin.routes`` under ``/admin``, and ``->  /v1/posts  v1.post.PostRouter``
  those of that router class, down the chain of includes.
- cobra's ``cmd.AddCommand(remove.NewCmdRemove(f))`` makes ``remove`` a
  subcommand of the command ``cmd`` holds: ``gh alias delete`` is the command
  ``delete`` made by ``NewCmdDelete``, added by ``NewCmdAlias`` to ``alias``,
  added to the root command ``gh``.

The tree-sitter pass records each as a ``Mount`` fact (a router the file
makes and mounts itself is prefixed there already; Play's includes are read
from the routes file, ``rag.analysis.play_routes``); this pass follows them
across files, the calls resolved through the files' edges, outermost prefix
first.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import replace

from rag.analysis.app_config import application_folder
from rag.analysis.entrypoints.context import join_route
from rag.analysis.imports import ImportTargets, shared_folders
from rag.analysis.languages.routes import MADE_BY_CALL, METHOD_VALUE
from rag.analysis.names import MAX_DEPTH
from rag.analysis.play_routes import play_router
from rag.analysis.records import Edge, Entrypoint
from rag.analysis.results import FileAnalysis

# The frameworks whose routers are mounted under a prefix (Express's and Koa's ``use``, Hono's ``route``,
# Fastify's ``register``), and the one whose routes an application versions in their paths (NestJS's).
MOUNTED_FRAMEWORKS = frozenset({"express", "koa", "hono", "fastify"})
VERSIONED_FRAMEWORKS = frozenset({"nestjs"})
# The frameworks whose commands are added under others, by the function that makes them or the variable that holds them.
SUBCOMMAND_FRAMEWORKS = frozenset({"cobra"})
# What separates the parts of a called name as written: ``remove.NewCmdRemove``, ``users::router``.
_PATH_SEPARATOR = re.compile(r"\.|::")
# Where a Rust path starts rather than a module it names (``crate::users::list``).
_PATH_ROOTS = frozenset({"crate", "self", "super"})
# The frameworks whose routers a function makes and another nests under a prefix (axum's ``.nest``, chi's ``Mount``).
NESTED_FRAMEWORKS = frozenset({"axum", "chi"})
# The frameworks whose handlers are registered in a scope with a prefix (actix-web's ``web::scope``, Rocket's ``mount``).
SCOPED_FRAMEWORKS = frozenset({"actix", "rocket"})
# The frameworks whose procedures a router includes under a key, named with dots (tRPC's ``post.hello``).
PROCEDURE_FRAMEWORKS = frozenset({"trpc"})
# The frameworks whose routes files include other routers under a prefix (Play's ``->  /admin  admin.Routes``).
INCLUDED_FRAMEWORKS = frozenset({"play"})
# A router mounted from several places serves under each prefix; past this many, under the first ones.
MAX_PREFIXES = 4


def join_prefix(*parts: str) -> str:
    """``/api`` + ``/users`` + ``/`` -> ``/api/users``."""
    return "/" + "/".join(stripped for part in parts if (stripped := part.strip("/")))


def across_files(
    imports: ImportTargets, analyses: dict[str, FileAnalysis], file_edges: dict[str, list[Edge]],
    found: dict[str, list[Entrypoint]],
) -> dict[str, list[Entrypoint]]:
    """``found`` (entrypoints by path) with their handlers given as method values resolved, then under the
    prefixes and commands other files and functions give them."""
    found = {path: [_with_handler_value(entry, file_edges.get(path, [])) for entry in entries] for path, entries in found.items()}
    found = _with_implementations(analyses, file_edges, found)
    found = _with_router_modules(analyses, found)
    found = _with_versions(analyses, found)
    found = _with_mounted_prefixes(imports, analyses, found)
    found = _with_command_paths(analyses, file_edges, found)
    found = _with_nested_routers(analyses, file_edges, found)
    found = _with_included_routers(analyses, found)
    found = _with_scoped_services(analyses, found)
    found = _with_autoloaded_folders(analyses, found)
    return _with_context_paths(analyses, found)


# The frameworks whose plugins a folder's autoload registers under the folders' paths (Fastify's ``@fastify/autoload``).
AUTOLOADED_FRAMEWORKS = frozenset({"fastify"})


def _with_autoloaded_folders(analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]]) -> dict[str, list[Entrypoint]]:
    """``found`` with the routes of the files an autoload registers under its prefix and their folder's path
    below the autoloaded folder: the nearest autoload's (a folder autoloaded from two places, under each)."""
    loads: dict[str, list[str]] = {}  # an autoloaded folder -> its prefixes
    for path, analysis in analyses.items():
        for mount in analysis.facts.mounts if analysis.facts is not None else ():
            if mount.method == "autoload":
                folder = posixpath.normpath(posixpath.join(posixpath.dirname(path), mount.child))
                known = loads.setdefault(folder, [])
                if len(known) < MAX_PREFIXES and (mount.prefix or "") not in known:
                    known.append(mount.prefix or "")
    if not loads:
        return found

    def prefixes(path: str) -> list[str]:
        folder = max((each for each in loads if path.startswith(each + "/")), key=len, default=None)
        if folder is None:
            return [""]
        below = posixpath.dirname(path[len(folder) + 1:])
        return [join_prefix(prefix, below) for prefix in loads[folder]]

    return {
        path: [
            _under(prefix, entry)
            for entry in entries
            for prefix in (prefixes(path) if entry.framework in AUTOLOADED_FRAMEWORKS and entry.entry_type == "http_route" else [""])
        ]
        for path, entries in found.items()
    }


# The frameworks whose routes an application's context path is over, by the framework that sets it (Django's
# ``FORCE_SCRIPT_NAME`` is over the REST framework's and Django Ninja's routes too).
_SERVED_BY = {"django": frozenset({"django", "drf", "ninja"})}


def _with_context_paths(analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]]) -> dict[str, list[Entrypoint]]:
    """``found`` with the routes of each application under the path it serves them at (a JVM server's
    configured context path, NestJS's global prefix, Next.js's ``basePath``, Django's ``FORCE_SCRIPT_NAME``): a
    framework's routes of the files under the application's folder, the innermost application's; outermost of
    all their prefixes."""
    paths = sorted(
        [
            *(
                (folder, mount.parent, mount.prefix)
                for path, analysis in analyses.items() if analysis.facts is not None
                for mount in analysis.facts.mounts
                if mount.method == "context_path" and mount.prefix
                for folder in (application_folder(path),)
            ),
            *_script_names(analyses),
        ],
        key=lambda item: -len(item[0]),
    )
    if not paths:
        return found

    def context_path(path: str, entry: Entrypoint) -> str:
        return next(
            (
                prefix for folder, framework, prefix in paths
                if entry.framework in _SERVED_BY.get(framework, (framework,)) and path.startswith(folder)
            ),
            "",
        ) if entry.entry_type == "http_route" else ""

    return {
        path: [_under(context_path(path, entry), entry, slash=entry.framework in _SERVED_BY["django"]) for entry in entries]
        for path, entries in found.items()
    }


def _script_names(analyses: dict[str, FileAnalysis]) -> list[tuple[str, str, str]]:
    """(folder, "django", path) of each Django settings module that sets ``FORCE_SCRIPT_NAME = "/app"``: the
    project's routes are served under it. The project is the folder above the settings that holds its
    ``manage.py``, else the repository."""
    managed = sorted((posixpath.dirname(path) for path in analyses if posixpath.basename(path) == "manage.py"), key=len, reverse=True)
    found = []
    for path, analysis in analyses.items():
        facts = analysis.facts
        if analysis.language != "python" or facts is None:
            continue
        for owner, name, value in facts.class_strings:
            if name == "FORCE_SCRIPT_NAME" and owner == facts.module and value.strip("/"):
                folder = next((each for each in managed if path.startswith(each + "/") or not each), "")
                found.append((folder + "/" if folder else "", "django", value))
    return found


def _with_implementations(
    analyses: dict[str, FileAnalysis], file_edges: dict[str, list[Edge]], found: dict[str, list[Entrypoint]],
) -> dict[str, list[Entrypoint]]:
    """``found`` with each route whose handler is a method an interface declares (a Spring API an OpenAPI
    generator writes, ``UsersApi.getUser``) handled by the method of that name of the one class of the repository
    that implements the interface (``UsersController.getUser``), where the code that answers is."""
    handlers = {entry.handler for entries in found.values() for entry in entries if entry.handler}
    if not handlers:
        return found
    declared = {
        symbol.qname: symbol for analysis in analyses.values() for symbol in analysis.symbols
        if symbol.kind == "method" and symbol.parent is not None
    }
    routed = handlers & declared.keys()
    if not routed:
        return found
    interfaces = {declared[handler].parent for handler in routed}
    implementers: dict[str, set[str]] = {}
    for edges in file_edges.values():
        for edge in edges:
            if edge.kind == "inherits" and edge.dst in interfaces:
                implementers.setdefault(edge.dst, set()).add(edge.src)
    implemented = {}
    for handler in routed:
        method = declared[handler]
        classes = implementers.get(method.parent, set())
        if len(classes) == 1 and (own := f"{next(iter(classes))}.{method.name}") in declared:
            implemented[handler] = own
    if not implemented:
        return found
    return {
        path: [replace(entry, handler=implemented[entry.handler]) if entry.handler in implemented else entry for entry in entries]
        for path, entries in found.items()
    }


def _with_handler_value(entry: Entrypoint, edges: list[Edge]) -> Entrypoint:
    """The entrypoint with its handler when it is a method value (Go's ``h.Show``), or a handler made by a
    call of another module's function (``handlers.GetBooks(service)``: the function called), that the file's
    reference to it, within the entrypoint's lines, resolves."""
    if entry.handler is not None:
        return entry
    made = MADE_BY_CALL.match(entry.handler_raw)
    written = made.group(1) if made is not None else entry.handler_raw
    if not METHOD_VALUE.fullmatch(written):
        return entry
    handler = _called(edges, written, entry.start_line, entry.end_line)
    return replace(entry, handler=handler) if handler is not None else entry


# A version the analysis wrote in a route (``rag.analysis.languages.routes.VERSION_TOKEN``), with the slash before it.
_VERSION_TOKEN = re.compile(r"/?\{version:([^}]*)\}")


def _with_versions(analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]]) -> dict[str, list[Entrypoint]]:
    """``found`` with NestJS's routes under their versions where their application versions its URIs (the
    versioning of the nearest ``main.ts`` above them), the versions written no part of the path elsewhere. A
    version comes before the paths of the router modules (and after the global prefix, which comes later)."""
    versionings = sorted(
        (
            (posixpath.dirname(path), mount.child, mount.prefix or "")
            for path, analysis in analyses.items() if analysis.facts is not None
            for mount in analysis.facts.mounts if mount.method == "versioning"
        ),
        key=lambda item: -len(item[0]),
    )

    def versioned(path: str, entry: Entrypoint) -> Entrypoint:
        written = _VERSION_TOKEN.search(entry.route_or_command)
        if entry.framework not in VERSIONED_FRAMEWORKS or (written is None and not versionings):
            return entry
        route = _VERSION_TOKEN.sub("", entry.route_or_command, count=1) if written is not None else entry.route_or_command
        versioning = next(((default, prefix) for folder, default, prefix in versionings if not folder or path.startswith(folder + "/")), None)
        version = written.group(1) if written is not None else versioning[0] if versioning is not None else ""
        if versioning is None or not version:
            return replace(entry, route_or_command=route or "/")
        return replace(entry, route_or_command=join_prefix(versioning[1] + version, route))

    return {path: [versioned(path, entry) for entry in entries] for path, entries in found.items()}


def _under(prefix: str, entry: Entrypoint, *, slash: bool = False) -> Entrypoint:
    """The entrypoint served under ``prefix``; as it is for none (a command, a route no mount reaches). With
    ``slash`` a route's trailing slash stays (Django's ``/polls/``, which its ``APPEND_SLASH`` tells apart)."""
    if not prefix.strip("/"):
        return entry
    route = join_prefix(prefix, entry.route_or_command)
    kept = slash and entry.route_or_command.endswith("/") and route != "/"
    return replace(entry, route_or_command=route + "/" if kept else route)


def _with_router_modules(analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]]) -> dict[str, list[Entrypoint]]:
    """``found`` with the routes of NestJS controllers under the paths ``RouterModule.register`` gives the
    modules that declare them (a child route's module under its parent's path too), before any global prefix.
    Modules and controllers are known by their class names."""
    routed: dict[str, str] = {}  # module -> its path, the paths of the routes around it joined
    declared: dict[str, list[str]] = {}  # controller -> the modules that declare it
    for analysis in analyses.values():
        for mount in analysis.facts.mounts if analysis.facts is not None else ():
            if mount.method == "router_module":
                routed.setdefault(mount.child, join_prefix(mount.prefix or ""))
            elif mount.method == "module_controller":
                declared.setdefault(mount.child, []).append(mount.parent)
    if not routed:
        return found

    def prefix_of(entry: Entrypoint) -> str:
        if entry.framework != "nestjs" or entry.entry_type != "http_route" or not entry.handler or entry.handler.count(".") < 1:
            return ""
        controller = entry.handler.rsplit(".", 2)[-2]
        paths = {routed[module] for module in declared.get(controller, ()) if module in routed}
        return paths.pop() if len(paths) == 1 else ""

    return {path: [_under(prefix_of(entry), entry) for entry in entries] for path, entries in found.items()}


def _with_mounted_prefixes(
    imports: ImportTargets, analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]],
) -> dict[str, list[Entrypoint]]:
    """``found`` (entrypoints by path) with the routes of mounted routers and the procedures of included
    routers under their prefixes."""
    prefixes = _mounted_prefixes(imports, analyses, "use")
    procedures = _mounted_prefixes(imports, analyses, "procedures")
    if not prefixes and not procedures:
        return found
    changed: dict[str, list[Entrypoint]] = {}
    for path, entries in found.items():
        mounted = prefixes.get(path, [])
        keys = procedures.get(path, [])
        if not mounted and not keys:
            changed[path] = entries
            continue
        changed[path] = [
            _under(prefix, entry) if entry.framework not in PROCEDURE_FRAMEWORKS else _under_key(prefix, entry)
            for entry in entries
            for prefix in (_prefixes_of(entry, mounted) if entry.framework not in PROCEDURE_FRAMEWORKS else keys or [""])
        ]
    return changed


def _under_key(prefix: str, entry: Entrypoint) -> Entrypoint:
    """A procedure under the keys of the routers that include it (``/post`` of the mounts: ``post.hello``)."""
    key = prefix.strip("/").replace("/", ".")
    return replace(entry, route_or_command=f"{key}.{entry.route_or_command}") if key else entry


def _prefixes_of(entry: Entrypoint, mounted: list[str]) -> list[str]:
    """The prefixes an entrypoint serves under: ``[""]`` keeps it as it is."""
    if entry.entry_type == "http_route" and entry.framework in MOUNTED_FRAMEWORKS and mounted:
        return mounted
    return [""]


def _mounted_prefixes(imports: ImportTargets, analyses: dict[str, FileAnalysis], method: str) -> dict[str, list[str]]:
    """Per file whose router another file mounts (by mounts of ``method``: ``use``, tRPC's ``procedures``): the
    whole prefixes it serves under, from the files that mount without being mounted themselves."""
    path_of = {unit: path for path, unit in imports.units.items()}
    children: dict[str, list[tuple[str, str]]] = {}
    for path, analysis in analyses.items():
        if analysis.facts is None:
            continue
        for mount in analysis.facts.mounts:
            if mount.method != method:
                continue
            target = imports.target(mount.child, analysis)
            child = path_of.get(target) if target is not None else None
            if child is not None and child != path:
                children.setdefault(path, []).append((mount.prefix or "", child))
    return _whole_prefixes(children)


def _whole_prefixes(children: dict[str, list[tuple[str, str]]]) -> dict[str, list[str]]:
    """Per router mounted (``children``: each mounting one's prefixes and routers): the whole prefixes it
    serves under, from the routers that mount without being mounted themselves."""
    mounted_somewhere = {child for mounted in children.values() for _, child in mounted}
    prefixes: dict[str, list[str]] = {}

    def visit(path: str, outer: str, seen: frozenset[str]) -> None:
        for prefix, child in children.get(path, ()):
            whole = join_prefix(outer, prefix)
            known = prefixes.setdefault(child, [])
            if child in seen or whole in known or len(known) >= MAX_PREFIXES or len(seen) > MAX_DEPTH:
                continue
            known.append(whole)
            visit(child, whole, seen | {child})

    for root in sorted(set(children) - mounted_somewhere):
        visit(root, "", frozenset({root}))
    return prefixes


def _with_command_paths(
    analyses: dict[str, FileAnalysis], file_edges: dict[str, list[Edge]], found: dict[str, list[Entrypoint]],
) -> dict[str, list[Entrypoint]]:
    """``found`` with each command added under another named by its whole path (``gh alias delete``)."""
    made_by = _commands_by_maker(analyses, found)
    if not made_by:
        return found
    parents: dict[tuple[str, int], tuple[str, int]] = {}
    for path, analysis in analyses.items():
        if analysis.facts is None:
            continue
        folder = posixpath.dirname(path)
        for mount in analysis.facts.mounts:
            if mount.method != "add_command":
                continue
            parent = made_by.get(f"{folder}:{mount.parent}") or made_by.get(mount.scope)
            child = made_by.get(f"{folder}:{mount.child}") or made_by.get(_called(file_edges.get(path, ()), mount.child, mount.line) or "")
            if parent is not None and child is not None and child != parent:
                parents.setdefault(child, parent)

    def whole(key: tuple[str, int], seen: frozenset[tuple[str, int]]) -> str:
        own = found[key[0]][key[1]].route_or_command
        parent = parents.get(key)
        if parent is None or parent in seen or len(seen) >= MAX_DEPTH:
            return own
        return f"{whole(parent, seen | {key})} {own}"

    changed = dict(found)
    for path in {path for path, _ in parents}:
        changed[path] = [
            replace(entry, route_or_command=whole((path, index), frozenset())) if (path, index) in parents else entry
            for index, entry in enumerate(found[path])
        ]
    return changed


def _commands_by_maker(analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]]) -> dict[str, tuple[str, int]]:
    """Each command of ``SUBCOMMAND_FRAMEWORKS`` (its path and place in ``found``) by what makes it: the
    function around it, or ``folder:variable`` for a variable of its package that holds it."""
    made_by: dict[str, tuple[str, int]] = {}
    for path, entries in found.items():
        analysis = analyses[path]
        if analysis.facts is None or not any(entry.framework in SUBCOMMAND_FRAMEWORKS for entry in entries):
            continue
        folder = posixpath.dirname(path)
        variables = {mount.line: mount.parent for mount in analysis.facts.mounts if mount.method == "command_variable"}
        for index, entry in enumerate(entries):
            if entry.framework not in SUBCOMMAND_FRAMEWORKS:
                continue
            if entry.start_line in variables:
                made_by.setdefault(f"{folder}:{variables[entry.start_line]}", (path, index))
                continue
            maker = _function_around(analysis, entry.start_line)
            if maker is not None:
                made_by.setdefault(maker, (path, index))
    return made_by


def _function_around(analysis: FileAnalysis, line: int) -> str | None:
    """The innermost function or method of the file whose lines hold ``line`` (what makes a command or router there)."""
    around = [s for s in analysis.symbols if s.kind in ("function", "method") and s.start_line <= line <= s.end_line]
    return max(around, key=lambda s: s.start_line).qname if around else None


def _called(edges: Iterable[Edge], written: str, line: int, last_line: int | None = None) -> str | None:
    """The definition a call written ``written`` (``remove.NewCmdRemove``, ``users::router``, ``h.Show``) at
    ``line`` (or up to ``last_line``) resolves to."""
    name = _PATH_SEPARATOR.split(written)[-1]
    last = line if last_line is None else last_line
    return next((edge.dst for edge in edges if edge.kind == "calls" and line <= edge.line <= last and edge.raw == name and edge.dst), None)


def _with_nested_routers(
    analyses: dict[str, FileAnalysis], file_edges: dict[str, list[Edge]], found: dict[str, list[Entrypoint]],
) -> dict[str, list[Entrypoint]]:
    """``found`` with the routes a function makes under the prefixes it is nested at (axum's
    ``.nest("/api", users::router())``, the call resolved through the file's edges), down the chain of nestings."""
    nested: dict[str, list[tuple[str, str]]] = {}  # the function nested -> (prefix, the function nesting it)
    for path, analysis in analyses.items():
        for mount in analysis.facts.mounts if analysis.facts is not None else ():
            if mount.method == "nest":
                target = _called(file_edges.get(path, ()), mount.child, mount.line)
                if target is not None and target != mount.scope:
                    nested.setdefault(target, []).append((mount.prefix or "", mount.scope))
    if not nested:
        return found

    # Each function's prefixes, found once: a function nested by several, each nested by several ..., is
    # not walked again for every way up (a chain found through a cycle or past ``MAX_DEPTH`` stops there).
    known: dict[str, list[str]] = {}

    def prefixes(function: str, seen: frozenset[str]) -> list[str]:
        if function not in nested or function in seen or len(seen) >= MAX_DEPTH:
            return [""]
        if function not in known:
            whole = [join_prefix(outer, prefix) for prefix, parent in nested[function] for outer in prefixes(parent, seen | {function})]
            known[function] = list(dict.fromkeys(whole))[:MAX_PREFIXES]
        return known[function]

    changed = dict(found)
    for path, entries in found.items():
        if not any(entry.framework in NESTED_FRAMEWORKS for entry in entries):
            continue
        routes = []
        for entry in entries:
            maker = _function_around(analyses[path], entry.start_line) if entry.framework in NESTED_FRAMEWORKS else None
            if maker not in nested:
                routes.append(entry)
                continue
            routes.extend(_under(prefix, entry) for prefix in prefixes(maker, frozenset()))
        changed[path] = routes
    return changed


def _with_included_routers(analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]]) -> dict[str, list[Entrypoint]]:
    """``found`` with the routes of the routers Play's routes files include under the include's prefix, below
    the prefixes the including file is included at: ``->  /admin  admin.Routes`` includes the routes file
    ``admin.routes`` nearest the including one, whose ``/`` is ``/admin`` and ``/users`` ``/admin/users``;
    ``->  /v1/posts  v1.post.PostRouter`` the routes of that class (its routing DSL's), all below the prefix:
    ``p"/"`` is ``/v1/posts/``."""
    includes = [
        (path, mount) for path, analysis in analyses.items() if analysis.facts is not None
        for mount in analysis.facts.mounts if mount.method == "include"
    ]
    if not includes:
        return found
    files: dict[str, list[str]] = {}  # a router -> the routes files that make it
    for path in analyses:
        if (router := play_router(path)) is not None:
            files.setdefault(router, []).append(path)
    wanted = {mount.child for _, mount in includes}
    classes = {
        symbol.qname: (path, symbol.start_line, symbol.end_line)
        for path, analysis in analyses.items() for symbol in analysis.symbols
        if symbol.kind == "class" and symbol.qname in wanted
    }
    children: dict[str, list[tuple[str, str]]] = {}  # a routes file -> (prefix, the routes file or class it includes)
    for path, mount in includes:
        named = files.get(mount.child, [])
        nearest = max((shared_folders(path, other) for other in named), default=0)
        targets = [other for other in named if shared_folders(path, other) == nearest]
        if not named and mount.child in classes:
            targets = [mount.child]
        if len(targets) == 1 and targets[0] != path:
            children.setdefault(path, []).append((mount.prefix or "", targets[0]))
    prefixes = _whole_prefixes(children)
    if not prefixes:
        return found
    routers: dict[str, list[tuple[int, int, str]]] = {}  # a file -> the lines of the router classes it defines
    for qname, (path, start, end) in classes.items():
        routers.setdefault(path, []).append((start, end, qname))

    def prefixes_of(path: str, entry: Entrypoint) -> list[str]:
        if entry.framework not in INCLUDED_FRAMEWORKS or entry.entry_type != "http_route":
            return [""]
        if path in prefixes:
            return prefixes[path]
        around = [qname for start, end, qname in routers.get(path, ()) if start <= entry.start_line <= end]
        return prefixes.get(around[-1], [""]) if around else [""]

    def included(prefix: str, entry: Entrypoint, path: str) -> Entrypoint:
        if not prefix.strip("/"):
            return entry
        route = prefix if path in prefixes and entry.route_or_command == "/" else join_route(prefix, entry.route_or_command)
        return replace(entry, route_or_command=route)

    return {
        path: [included(prefix, entry, path) for entry in entries for prefix in prefixes_of(path, entry)]
        for path, entries in found.items()
    }


def _with_scoped_services(analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]]) -> dict[str, list[Entrypoint]]:
    """``found`` with the routes of handlers registered in a scope under its prefix (actix-web's
    ``web::scope("/api").service(index)``, Rocket's ``.mount("/api", routes![index])``): the handler of that name
    in the registering file, else the one of that name in the repository (of several, the one whose module
    path ends as written: ``users::list``)."""
    handlers: dict[str, list[str]] = {}  # a handler's last name -> its qnames
    for entries in found.values():
        for entry in entries:
            if entry.framework in SCOPED_FRAMEWORKS and entry.handler:
                handlers.setdefault(entry.handler.rsplit(".", 1)[-1], []).append(entry.handler)
    scoped: dict[str, list[str]] = {}  # a handler's qname -> the prefixes of the scopes it is registered in
    for path, analysis in analyses.items():
        module = analysis.facts.module if analysis.facts is not None else None
        for mount in analysis.facts.mounts if analysis.facts is not None else ():
            if mount.method != "scope":
                continue
            written = [part for part in _PATH_SEPARATOR.split(mount.child) if part not in _PATH_ROOTS] or [mount.child]
            named = sorted(set(handlers.get(written[-1], ())))
            own = [qname for qname in named if module and qname.startswith(module + ".")]
            if len(written) > 1:
                own = [qname for qname in named if qname.endswith("." + ".".join(written))]
            chosen = own or (named if len(named) == 1 else [])
            for qname in chosen[:1]:
                known = scoped.setdefault(qname, [])
                if mount.prefix is not None and mount.prefix not in known and len(known) < MAX_PREFIXES:
                    known.append(mount.prefix)
    if not scoped:
        return found
    return {
        path: [
            _under(prefix, entry)
            for entry in entries
            for prefix in (scoped.get(entry.handler or "", [""]) if entry.framework in SCOPED_FRAMEWORKS else [""])
        ]
        for path, entries in found.items()
    }
