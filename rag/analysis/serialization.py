"""``FileAnalysis`` to and from JSON-ready dicts, so a stored index can feed ``previous``.

The indexer can keep each file's analysis beside its rows and pass it back to
``analyze_repository(files, previous=...)`` on the next run; files whose
content hash is unchanged then skip the per-file pass. A dict written by a
different ``ANALYSIS_VERSION`` is refused (``None``), so a changed analyser
never reuses stale facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from rag.analysis.facts import (
    ArgparseCommand,
    AttributeType,
    ConsoleScript,
    DecoratorCall,
    FileFacts,
    ImportBinding,
    Instance,
    Mount,
    NamedImport,
    Reference,
    RouteRegistration,
    UrlPattern,
)
from rag.analysis.python_source import json_safe
from rag.analysis.records import Chunk, Edge, Entrypoint, Symbol
from rag.analysis.results import FileAnalysis

ANALYSIS_VERSION = 126
"""Bump when extraction changes what it records for the same text (3: the indexer stores the
per-file pass, ``RepositoryAnalysis.extracted``, instead of the resolved analysis; 4: files of the
tree-sitter languages have symbols, symbol chunks and facts instead of windows; 5: their
entrypoints cover more frameworks and route prefixes, and more files are tests; 6: package.json
bins and scripts and Cargo.toml ``[[bin]]`` targets are commands; 7: Cargo.toml and go.mod record the
name they are imported by, and a Rust ``use`` of a group is one import per path;
8: an import's scope is the definition around it, a Rust ``mod tests`` for instance; 9: a tree-sitter
language's symbol chunk starts at the definition's doc comment and attributes, which are also read
past attributes for its doc, and gaps of punctuation alone are not chunks; 10: a function that is
the value of the definition naming it, JavaScript's ``res.send = function send() {}``, is not a
second symbol; 11: a signature is the line that declares, not an annotation or template header
above it; 12: a ``.h`` header written in C++ is read with C++'s grammar; 13: a file whose first lines say a
tool wrote it is ``generated``; 14: PHP's and C#'s names start at the namespace, which is no symbol,
and Rails routes are read in the routes files only; 15: a doc leaves out the markup of C#'s XML
documentation and Javadoc's HTML; 16: a C++ template's chunk and doc start above its ``template <...>`` line;
19: a tree-sitter language's call records what it is called on, ``Reference.receiver``; 20: and the
type its receiver is declared with, ``Reference.receiver_type``, in every language with a ``types.scm``, and a class's superclass is an
``inherits`` reference in Java, TypeScript, Kotlin, C#, PHP and Ruby; 21: and in JavaScript, when the
superclass is named by an identifier; 22: entrypoints are calls on routers (Go), gRPC registrations are
``rpc_service`` entrypoints, a handler written in place is its block, and Rust's build scripts have none; 23: Rust calls through a path are
references with the path as their receiver, and Ruby's parameters, block parameters and locals are no calls; 24: C and
C++ function-like macros, operators, specialisations and typedefs are symbols and a function in a namespace is no method,
Kotlin and C# properties, PHP enums and Ruby attributes are symbols, C# generic calls and PHP plain calls are
references, PHP's ``use`` binds names, Ruby constants record their lexical scope, a test file has no entrypoints, and
a one-line property is no chunk of its own; 25: CMake's ``add_executable`` and Automake's ``bin_PROGRAMS`` are
programs aimed at their first source's ``main``; 26: ES imports by package name resolve; 27: a large class inside a
module or another class is split by its own members, at every depth; 28: a member inside the member before it, a method
of an object expression a property holds, adds no chunk of its own, and a gap of Ruby's ``end`` and ``private`` or C++'s
``public:`` alone is no chunk; 29: routes called on a route group bound to a name (ASP.NET's ``MapGroup``, gin's
``Group``) are under its prefix, ASP.NET's minimal API templates need no leading slash, a Spring mapping of a list of
paths is a route for each, a Ktor route's path needs no leading slash, an axum route names its method and handler,
a route registered by a call in a chain starts at its path's line, and an Express route's handler is
recorded as written, a module's function or a function written in place, and Laravel's routes take an invokable
controller, a closure, and a prefix set beside other settings or in a group's options, and every HTTP route is a path
from the root: NestJS's ``@Get('user')`` under ``@Controller()`` is ``/user``, and a Go route's handler named bare is the
function of that name in its package, and Rails resources read ``only:``, ``except:`` and ``param:``, singular and nested
resources, and the routes of a resource's block, and a Next.js page, ``app/**/page.tsx``, is a route shown by its default
export; 30: minified JavaScript and CSS, ``*.min.js`` or of lines averaging over 110 characters, is generated, a chi
sub-router's routes are under its ``Route`` prefix, an Express router may be named for what it routes: ``userRouter``, a Rails route in a ``namespace`` names its
controller in that module: ``admin/photos#index``, and Symfony's ``#[Route]`` attributes are routes; 31: a gap between members that
only opens a block, Kotlin's ``companion object {``, is chunked with the member below it; 32: a Rust module's unit tests
split out as ``tests.rs`` or ``test.rs`` are tests; 33: an Express or Koa router serves under the prefixes it is mounted
at, in its file or where it is imported (``app.use('/api', api)``), a receiver the file binds to ``express()`` or
``Router()`` routes whatever its name, and NestJS's ``setGlobalPrefix`` prefixes the application's controllers; 34: a
cobra command added under another is named by its whole path, ``gh alias delete``, and a Go call on an imported
package, ``deleteCmd.NewCmdDelete()``, is that package's function; 35: Django REST framework's routers serve the
actions of the viewsets registered on them, where a URLconf includes their ``urls``; 36: a Koa router's own ``prefix``
and a Fastify plugin registered with a ``prefix`` put their routes under it; 37: a module-level value made by one of two
calls, ``DefaultRouter() if settings.DEBUG else SimpleRouter()``, is an instance of what the first makes; 38: Micronaut's
``@Get`` ... on a method of a ``@Controller("/prefix")`` class, in Java and Kotlin; 39: gRPC services implemented in
Java and Kotlin (a class extending ``GreeterGrpc.GreeterImplBase``) and mapped in C# (``MapGrpcService<T>()``); 40: and
in Python, ``add_GreeterServicer_to_server(Greeter(), server)``; 41: of several classes a handler names bare, the one
nearest the file that names it; 42: an Express route's methods chained on ``app.route('/book')``, and Flask-RESTful's
``api.add_resource(Todo, '/todos/<id>')``, answering the methods the resource class defines; 43: a route's handler
given as a method value, Go's ``r.GET("/users/:id", h.Show)``, is that method of the value's type, and the
registration refers to it; 44: a REST framework router made with ``trailing_slash=False`` serves routes without one,
and a class view answers the methods of the framework's generic views it extends, ``ListCreateAPIView``: GET, POST; 45:
an action named alone in a Laravel controller group, ``Route::controller(OrderController::class)->group(...)``, is
that controller's method; 46: Vue and Svelte components are read by their ``<script>`` blocks, as JavaScript or
TypeScript, in the file's own lines; 47: an ES import finds a component without its suffix, and ``@/`` or ``~/`` that no
tsconfig maps is the ``src/`` folder of the nearest package, as bundlers alias it; 48: SvelteKit's ``+server.ts`` handlers
and ``+page.svelte`` pages and Nuxt's ``pages/**/*.vue`` are routes by their paths, and a component of markup alone is read;
49: axum's routers nested under a prefix, written in place or made by the function called, ``.nest("/api", api::router())``;
50: gorilla/mux's ``.Methods("GET")`` and ``r.PathPrefix("/admin").Subrouter()``; 51: a handler a library's wrapper makes of
the file's function, ``http.HandlerFunc(static)``, is that function; 52: actix-web's handlers registered in
``web::scope("/api")`` serve under it, and a command beside a prefixed route keeps its name; 53: a Spring
``@RequestMapping(method = RequestMethod.GET)`` serves the methods it names; 54: a NestJS controller's path given in its
options, ``@Controller({ path: 'cats' })``; 55: Kotlin's ``@RequestMapping(method = [RequestMethod.GET])`` too; 56: a chain of calls on Express's ``app.route()`` or
actix's ``web::scope()`` is read whatever its length; 57: TypeScript's overload signatures are the function
they declare, one symbol from the first to the body, with the first's doc comment; a bundler's ``/*#__PURE__*/``
is no doc; 58: a file whose syntax tree is more than 256 levels deep is read as lines; 59: so is a file whose parse runs past
5 s; 60: and one whose parse would take more than
512 MB, or whose runs of unnamed tokens side by side (error recovery's) would hold its queries, or that comes after an
analysis's parses have spent its budget; 61: Spring's functional routes (``RouterFunctions``' builder and
request predicates, under ``.path()`` and ``nest()``; Kotlin's ``router { }``), and a route's handler given as a method reference (``handler::get``,
``this::get``) by the type the name is declared with; actix-web's ``.route("/x", web::get().to(h))`` and ``web::resource("/x").route(...)``
under every scope around them; a handler named by a module path, ``parts::show``, is that module's function; a class's method named by a route that
several applications of a repository define is the nearest one's; NestJS's ``RouterModule.register`` paths); 62: a file that
defines a name longer than 2,000 bytes is read as lines; 63: the names an ES module imports or re-exports from
another (``import { warn } from './warning'``, ``export * from './general'``, CommonJS's ``const { a } = require('./a')``); 64: the strings a Python class body assigns to a name (a
viewset's ``lookup_field``); 65: an ES module's default export and default imports; 66: its own definitions under the names of its export
list (``export { helper as default, parse }``); 67: C and C++ one name space (C++ calls C's functions, C a C++ file's
``extern "C"`` ones); 68: Hono's routes, base paths and mounts, a router mounted by the name a named import binds
(``import { books } from './books'``); 69: a Go route's framework is the one its file imports (``gin``, ``fiber`` ...), a PHP command's
Symfony's where its file uses Symfony's console alone; 70: tasks of other languages than Python (scheduled methods, listeners of
topics and queues, job classes, queue workers); 71: actix-web's functions called bare, GraphQL operations (gqlgen,
NestJS, resolver maps); 72: the calls a Python class body assigns to a name (Graphene's mutations); 73: graphql-ruby's
operations, no routes of a Feign client; 74: chi's routers mounted by the function that makes them, no
routes on an HTTP client; 75: an ES module imported or passed on whole under a name (``import * as fmt``,
``export * as fmt from``); 76: ASP.NET MVC's actions without a route of their own (the conventional
``[controller]/[action]``), Razor Pages routed by their files; 77: net/http's own ``http.HandleFunc`` routes
are net/http's in a file that also uses a framework; 78: Razor Pages of an area under its name; 79: Swift
(symbols, calls, conformances, ``@main`` programs, Vapor and Hummingbird routes, argument-parser commands); 80:
Vapor's groups bound to a name (``let todos = routes.grouped("todos")``); 81: Dart (symbols, calls, imports through
``pubspec.yaml`` package names, programs, shelf_router and Dart Frog routes, args commands), a signature keeps the
braces of its parameters; 82: Scala (symbols, imports by their whole path, calls, one name space with Java and
Kotlin, programs, Akka/Pekko HTTP, http4s, ZIO HTTP, Play, Scalatra and Cask routes, actors and schedules); 83: shell
scripts (functions, calls, sourced scripts, programs and their subcommands); 84: Lua (functions, class tables,
calls, ``require`` through the package path, programs, Lapis and Kong routes, Neovim commands), Lua's doc comments
without their dashes; 85: Elixir (modules and functions, aliases, imports and calls, Phoenix and Plug routes,
Mix tasks, Oban workers); 86: a Phoenix route is handled by its controller's function of the action's name;
87: a shell script sources a script through its own folder (``"$DIR/lib/common.sh"``); 88: a
signature ends at the first brace where the brackets before it balance (a line closing one it did not open); 89: a
definition that ends at the start of a line (a Scala or Swift one that runs to the end of the file; a file's root)
ends on the line before; code points no UTF-8 text holds are read as U+FFFD; a file the analysis fails on is
read as lines; 90: a lone carriage return (classic Mac OS) ends a line for tree-sitter too, so symbols' lines
are their chunks' lines; 91: Elixir's ``@doc`` documents its function and ``@moduledoc`` its module, the attributes
above a function are read with it; 92: Play's routes files (``conf/routes``, ``conf/*.routes``) are HTTP routes, their
includes mounts; 93: a command's line in a manifest is found as the dependencies' entries are (a key written with
escapes, ``"a\\/b"``, is found); 94: an Android manifest's components and the links its activities open are
``app_component`` entrypoints, Rocket's ``.mount("/api", routes![...])`` is a mount of each function listed, and
its ``#[launch]`` function a main, and an ASP.NET controller's ``[Area("Admin")]`` puts its actions under ``/Admin``; a group made on a group bound to a name (Vapor's
``todos.group(":todoID") { ... }``) is under that group's prefix too; Python's module-level strings are kept
(``FileFacts.class_strings``) and a mount's prefix given by a name (``Mount.prefix_name``); Laravel's ``routes/api.php`` routes are under ``/api``; tRPC's procedures are ``rpc_service`` entrypoints; a JVM server's configured context path is a ``context_path`` mount, and a
Fastify autoload an ``autoload`` mount, Next.js's ``basePath`` a ``context_path`` mount; Spring for GraphQL's, DGS's and Hot Chocolate's
operations are ``rpc_service`` entrypoints; Python's route tables (aiohttp, Starlette, Falcon, Tornado) are route
registrations, and a URL pattern's ``Consumer.as_asgi()`` is its view; Javalin's and Vert.x's routes and SignalR's hubs are HTTP
routes, and Remix's route modules file routes; CodeIgniter's routes file has routes, and Grape's API classes; a NestJS route's version is written in its
path (``{version:2}``) for the repository pass; a Phoenix live route is its LiveView's ``mount`` (GET), and Iris's
parties are route groups; a Blazor component's ``@page`` directives are routes, and Crow's and
cpp-httplib's C++ routes, and poem's and salvo's Rust routes; Pyramid's ``add_route`` is a mount of a route name; Spark's
Java routes are routes; so are a single-page app's client routes (React Router, Vue Router, Angular); a resource's routes of a controller
class (Laravel's, Phoenix's) are written ``UserController@index`` (Laravel's POST ``store``), Laravel's with their
``->only``/``->except``; 95: NestJS's global prefix is a ``context_path`` mount, as the other frameworks' paths of
an application are; 96: a route called on a group made in place (Vapor's ``app.grouped("api").get(...)``, gin's
``r.Group("/v1").GET(...)``, ASP.NET's ``app.MapGroup("api").MapGet(...)``) is under its prefix, and a Vapor group's
path of several components (``grouped("api", "v1")``) is all of them; 97: warp's routes, each chain of filters from its path to
its handler; 98: Pyramid's ``config.add_view`` and a class's ``@view_defaults``, and a Flask class view registered by
``add_url_rule`` answers the methods it defines; 99: Nuxt's server routes, Elysia's routes, and a Hono app with a base path
of its own mounted in its own file; 100: C++'s lines of macros the grammar cannot read (``Q_OBJECT``, ``FMT_BEGIN_NAMESPACE``)
are read as blank, so the declarations after them are read; 101: C's too (``G_BEGIN_DECLS``); 102: so is a C++ export
macro between ``class`` and the name (``class FMT_API format_error : ...``), a header whose class has an attribute
(``class [[nodiscard]] Result``) is C++, and a method defined in its class that returns a reference or a pointer is a
symbol; 103: a JavaScript or TypeScript class's property holding a function (``handleClick = () => {...}``) is a
method; 104: a Java record's compact constructor and an annotation type are symbols; 105: a Slim route's
handler given as a callable array (``[UserController::class, 'list']``); 106: Astro's components, read by their
frontmatter and scripts, and its pages, routes by their paths; 107: Flask-RESTX's resources under their namespaces'
paths (``api.add_namespace``, a Python mount); 108: Hanami's routes, handled by the action their key names; 109: a Django project's routes under
its ``FORCE_SCRIPT_NAME``; 110: Rails' and Hanami's ``root`` route; 111: Azure Functions run by HTTP requests (C#'s
``[HttpTrigger]``, Python's ``@app.route``) are routes under ``/api``, Python's triggers tasks; 112: the functions a
Serverless Framework service or an AWS SAM template deploys (``rag.analysis.serverless``); 113: a Spring API
interface's ``@RequestMapping`` prefixes its routes, and a route an interface declares is handled by the one class
that implements it; 114: Connect's (connect-go) service handlers are RPC services; 115: the HTTP methods a Python
call or decorator names are read by one rule (``rag.analysis.facts.http_methods``): one method written alone counts too;
116: a GraphQL resolver map is read in a file that imports graphql or its tools, or the types of its resolvers, as
well as a server's, and a field that names its resolver is handled by it; 117: commander's, yargs', urfave/cli's,
picocli's and Thor's commands, and clap's derived subcommands, are CLI commands; 118: a Rakefile and .rake files are
Ruby, their tasks commands named under their namespaces (``db:seed``); 119: TypeScript's enums and type aliases are
types, and a namespace scopes its names (``Text.pad``, a function); 120: a Thor command is its ``desc``, handled by
the method after it past at most three options (a run of any length made a class of many options quadratic); 121:
Quartz's jobs and Agenda's are tasks; 122: a Django Ninja router serves under the prefix its API adds it at, and an
Airflow DAG (``@dag``) is a task; 123: Socket.IO's events (Node's, Flask-SocketIO's, python-socketio's) are RPC
services; 124: APScheduler's ``add_job(f, ...)`` is a task; 125: NestJS's ``@MessagePattern({ cmd: 'sum' })`` is the task
its first value names; 126: a Thor command's method is also found past a ``long_desc``."""


def file_analysis_to_dict(analysis: FileAnalysis) -> dict[str, Any]:
    facts = None
    if analysis.facts is not None:
        facts = asdict(analysis.facts)
        facts["entry_candidates"] = sorted(analysis.facts.entry_candidates)
    return {
        "version": ANALYSIS_VERSION,
        "path": analysis.path,
        "content_hash": analysis.content_hash,
        "language": analysis.language,
        "artifact_type": analysis.artifact_type,
        "error": analysis.error,
        "chunks": [asdict(chunk) for chunk in analysis.chunks],
        "symbols": [asdict(symbol) for symbol in analysis.symbols],
        "edges": [asdict(edge) for edge in analysis.edges],
        "entrypoints": [asdict(entry) for entry in analysis.entrypoints],
        "facts": facts,
        "generated": analysis.generated,
    }


def file_analysis_from_dict(data: Mapping[str, Any]) -> FileAnalysis | None:
    """The analysis stored by ``file_analysis_to_dict``; None if another analyser version wrote it
    or it is not such a dict (the caller then analyses the file again)."""
    if not isinstance(data, Mapping) or data.get("version") != ANALYSIS_VERSION:
        return None
    try:
        return _file_analysis(data)
    except (KeyError, TypeError, ValueError):
        return None


def _file_analysis(data: Mapping[str, Any]) -> FileAnalysis:
    return FileAnalysis(
        path=data["path"],
        content_hash=data["content_hash"],
        language=data["language"],
        artifact_type=data["artifact_type"],
        error=data["error"],
        chunks=[Chunk(**chunk) for chunk in data["chunks"]],
        symbols=[Symbol(**{**symbol, "decorators": tuple(symbol["decorators"])}) for symbol in data["symbols"]],
        edges=[Edge(**edge) for edge in data["edges"]],
        entrypoints=[Entrypoint(**{**entry, "methods": tuple(entry["methods"])}) for entry in data["entrypoints"]],
        facts=_facts(data["facts"]) if data["facts"] is not None else None,
        generated=data["generated"],
    )


def _pairs(items: Any) -> tuple[tuple[str, Any], ...]:
    return tuple((key, json_safe(value)) for key, value in items)


def _decorator(data: Mapping[str, Any]) -> DecoratorCall:
    return DecoratorCall(**{**data, "args": json_safe(data["args"]), "kwargs": _pairs(data["kwargs"])})


def _url_pattern(data: Mapping[str, Any]) -> UrlPattern:
    return UrlPattern(**{**data, "children": tuple(_url_pattern(child) for child in data["children"])})


def _facts(data: Mapping[str, Any]) -> FileFacts:
    return FileFacts(
        module=data["module"],
        is_package=data["is_package"],
        imports=tuple(ImportBinding(**item) for item in data["imports"]),
        named_imports=tuple(NamedImport(**item) for item in data["named_imports"]),
        references=tuple(Reference(**item) for item in data["references"]),
        attribute_types=tuple(AttributeType(**item) for item in data["attribute_types"]),
        class_strings=tuple((owner, name, value) for owner, name, value in data["class_strings"]),
        class_calls=tuple((owner, name, callee) for owner, name, callee in data["class_calls"]),
        decorators=tuple((qname, tuple(_decorator(call) for call in calls)) for qname, calls in data["decorators"]),
        top_level=tuple(data["top_level"]),
        instances=tuple(
            Instance(**{**item, "args": json_safe(item["args"]), "kwargs": _pairs(item["kwargs"])})
            for item in data["instances"]
        ),
        mounts=tuple(Mount(**item) for item in data["mounts"]),
        route_registrations=tuple(
            RouteRegistration(**{**item, "methods": tuple(item["methods"]) if item["methods"] is not None else None})
            for item in data["route_registrations"]
        ),
        url_lists=tuple(
            (name, tuple(_url_pattern(pattern) for pattern in patterns)) for name, patterns in data["url_lists"]
        ),
        argparse_commands=tuple(ArgparseCommand(**item) for item in data["argparse_commands"]),
        console_scripts=tuple(ConsoleScript(**item) for item in data["console_scripts"]),
        manifest_name=data["manifest_name"],
        module_paths=tuple((pattern, tuple(places)) for pattern, places in data.get("module_paths", ())),
        management_command=data["management_command"],
        entry_candidates=frozenset(data["entry_candidates"]),
        entrypoints=tuple(Entrypoint(**{**item, "methods": tuple(item["methods"])}) for item in data.get("entrypoints", ())),
    )
