"""C3 entrypoints of one file, read with its language's ``entrypoints.scm`` (``_entrypoints``).

A folder's ``entrypoints.scm`` marks C3 entrypoints with these captures:

- ``@main`` (with its ``@name``): a program's main function;
- ``@route.<framework>``: an HTTP route, a registration call or an annotated handler, with its
  ``@path`` and ``@method`` (``get``, ``GetMapping``, ``HttpGet``, ``MapGet``, ``'POST'``,
  ``http.MethodGet``) and the ``@handler`` as written when the call names one (resolved to a
  definition of the file by name, or by the function called when it is a call: ``GreetHandler(ctx)``;
  unresolved, no handler; ``(#set! action "mount")`` names the function of the ``@handler`` module that handles the
  route (a Phoenix LiveView's); a ``@handler_action`` beside it names the action of that controller: Phoenix's
  ``UserController, :show``), or the ``@block`` that is the handler when it is written in place
  (Sinatra's ``get '/x' do ... end``, a Go ``func`` literal: ``block at PATH:LINE``);
- ``@action`` inside a ``@route.<framework>``: the route is a controller's action named by its name, which
  serves its class's route when it names none of its own, else the language's ``conventional_route``
  (ASP.NET MVC's ``[controller]/[action]``);
- ``@resource.<framework>`` with its ``@path``: a REST resource (``resources :photos``), the
  conventional index, create, show, update and destroy routes;
- ``@command.<framework>``: a CLI command, named by its ``@path`` (first word) or else by the program;
- ``@prefix`` inside a ``@prefixed`` node: a path prefix of every route within that node (a class's
  ``@RequestMapping``, NestJS ``@Controller``, Ktor ``route("/v1") { }``, Rails ``namespace``);
- ``@group`` with its ``@prefix``: a call making a group of routes under a prefix whose value is bound to a
  name (ASP.NET's ``var api = app.MapGroup("api/orders")``, gin's ``v1 := r.Group("/v1")``): the routes
  called on that name in the same definition are under the prefix, and so are the groups made from it;
- ``@mount`` (``@parent``, ``@prefix``, and the ``@mounted`` name or ``@mounted_module`` required in place): a
  router mounted under a prefix (Express's ``app.use('/api', users)``, Fastify's ``register``): a group when the
  file makes the router, else a ``Mount`` fact the repository pass follows (``rag.analysis.entrypoints.mounts``);
  ``@mount.global``, an application's global prefix (NestJS's ``setGlobalPrefix``); ``@mount.command`` and
  ``@mount.command_variable``, cobra's ``AddCommand`` and the variables commands are held in; ``@mount.listed``,
  a list of handlers mounted under a prefix (Rocket's ``.mount("/api", routes![a, b])``); ``@router``, a name
  the file binds to what makes an app or router (``express.Router()``), which routes whatever its name (a pattern's
  ``(#set! receiver "regex")`` names the receivers it accepts otherwise); ``@controlled`` with its ``@controller``,
  a group whose actions named alone are that controller's (Laravel's ``Route::controller(C::class)->group(...)``);
- ``@areaed`` with its ``@area``: a declaration whose routes' ``[area]`` token is that name (ASP.NET's
  ``[Area("Admin")]`` on a controller, whose conventional route is ``[area]/[controller]/[action]``);
- ``@client``: a declaration whose routes another service serves (Spring Cloud's ``@FeignClient`` interface):
  no route inside it is an entrypoint; ``@http_client``, a name the file binds to an HTTP client (``const api =
  axios.create()``): no call on it is a route, whatever its name;
- ``@chain_root`` with its ``@path``: the root of a chain of calls (Express's ``app.route('/book')``, actix's
  ``web::scope("/api")``); a route or mount whose ``@chained`` call is on such a chain, however long, takes the
  root's path (and receiver);
- ``@route.file``: an export of a file whose path is its route (``file_routes``), of the framework the file route names;
- ``@uses.<framework>``: the file uses that framework; a pattern with ``(#set! when_used "rocket")``
  is of that framework in such a file (``#[get("/")]`` is actix or rocket; several names: of the first the
  file uses), and one with
  ``(#set! requires "http")`` is an entrypoint only in a file with ``@uses.http`` (a Go router's
  ``Delete("/x", h)`` in a file that imports a web framework; clap's ``Command::new`` in a file that
  uses clap).

Pattern settings: ``(#set! strip "regex")`` removes what matches from the path (``RegisterGreeterServer``
is the ``Greeter`` service), ``(#set! route "{@root}.{lower}")`` names it by that form of the path (``{}`` as
written, ``{lower}`` with its first letter in lower case, ``{camel}`` a snake-case name in camel case,
``{snake}`` a camel-case name in snake case (Mix's ``Db.Seed`` task is ``db.seed``), ``{kebab}`` in kebab case (clap's
``ListAll`` subcommand is ``list-all``), ``{@root}`` the text of the capture ``@root``), ``(#set! entry_type "rpc_service")`` overrides the kind (``task``: a scheduled
method or a listener of a topic or queue, named by its ``@path`` captures, else by its handler), ``(#set! param
"{id}")`` names a resource's member parameter, ``(#set! filters "warp")`` marks the path of a chain of warp's
filters (``warp::path!("todos")``), whose route, methods and handler are the chain's (``_filter_chain``), ``(#set! join ":")`` names a command under the prefixes around it joined so (Rake's ``db:seed``), ``(#set! needs "path method _handler")`` makes it an
entrypoint only when the node's matches captured all of those (go-zero's ``rest.Route`` literal). Several patterns may match one node (with and without
its path): the match with the most captures wins. A route with neither a path, a prefix nor a file
route (``file_routes`` in ``language.toml``: Next.js ``pages/api/**``, ``app/**/route.ts`` and ``app/**/page.tsx``,
SvelteKit's ``+server.ts`` and ``+page.svelte``, Nuxt's ``pages/**/*.vue`` and ``server/api/**``, Astro's
``src/pages/**/*.astro``, with
the methods such a file serves when its code names none, or the one its name says: a group named ``method``) is no route.
A framework named in ``framework_files`` has routes only in files of those paths (Rails' ``config/routes.rb``);
one named in ``file_prefixes`` serves the routes of the files of a path under the prefix the framework gives them
(Laravel's ``routes/api.php`` under ``/api``).
Files matching ``build_scripts`` (Cargo's ``build.rs``) are run by the build, not by users: no entrypoints.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field, replace
from typing import Any

import tree_sitter

from rag.analysis.facts import (
    Mount,
)
from rag.analysis.languages.nodes import (
    _QUOTES,
    _Definitions,
    _last_row,
    _literal,
    _scope,
    _Spans,
    _text,
)
from rag.analysis.languages.parsing import MAX_NESTING
from rag.analysis.languages.spec import LanguageSpec, _entrypoints_query, _matches
from rag.analysis.records import Entrypoint

_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD")
# Captures that name several things at once (Rails' ``only: [...]``, Symfony's ``methods: [...]``), gathered
# from every match of a node.
_LIST_CAPTURES = frozenset({"only", "except", "method"})
# The conventional routes of a REST resource: (action, methods, suffix; ``{param}`` is the member id).
_RESOURCE_ROUTES = (
    ("index", ("GET",), ""),
    ("create", ("POST",), ""),
    ("show", ("GET",), "/{param}"),
    ("update", ("PUT", "PATCH"), "/{param}"),
    ("destroy", ("DELETE",), "/{param}"),
)
# The actions a framework names otherwise (Laravel's controller stores what Rails' and Phoenix's create).
_RESOURCE_ACTION_NAMES = {"laravel": {"create": "store"}}
# A name alone: a controller group's action (``'show'``).
_BARE_NAME = re.compile(r"[A-Za-z_]\w*")
# A method reference on a name: ``handler::getPerson``, ``this::hello``.
_METHOD_REFERENCE = re.compile(r"([A-Za-z_]\w*)::([A-Za-z_]\w*)")
# A handler given as a method value: ``h.Show``, ``users.list`` (the repository pass resolves it: ``rag.analysis.repository``).
METHOD_VALUE = re.compile(r"[\w$]+\.[\w$]+")
# A handler made by a call names the function that makes it: ``GreetHandler(ctx)``, ``auth(show)``.
# A capture's text in a pattern's ``route`` form: ``{@root}``.
# A capture's text in a route template (``{@_root}``), or the part of it that is one of some words
# (``{@_root~Query|Mutation}``: ``Query`` of ``QueryMapping``).
_CAPTURED = re.compile(r"\{@(\w+)(?:~([\w|]+))?\}")
MADE_BY_CALL = re.compile(r"^([\w.]+)\(.*", re.DOTALL)
# ... and when the repository defines no such function, the one name it wraps: ``http.HandlerFunc(static)``.
_WRAPPED = re.compile(r"[\w.]+\(\s*([\w.]+)\s*\)")
# A route pattern that starts with its method (Go 1.22's ServeMux): ``GET /items/{id}``.
_VERB_FIRST = re.compile(r"(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD) +(/.*)")


# A route's version in its path until the repository pass reads the application's versioning: ``{version:2}``
# (``rag.analysis.entrypoints.mounts``).
VERSION_TOKEN = "{{version:{}}}"


def _uri_versioning(options: tree_sitter.Node) -> tuple[str, str] | None:
    """(the default version, the prefix of a version in a path) of NestJS's ``enableVersioning`` options when
    the versions are in the path (``type: VersioningType.URI``); None for another type."""
    read = {key: _literal(value) if value.type == "string" else _text(value) for key, value in _pairs(options).items()}
    if not read.get("type", "").endswith("URI"):
        return None
    return read.get("defaultVersion", ""), read.get("prefix", "v")


# Next.js's configuration file, whose ``basePath`` every page and route of the app is served under.
_NEXT_CONFIG = re.compile(r"(?:^|/)next\.config\.(?:js|mjs|cjs|ts|mts)$")
# The modules of Fastify's autoload plugin.
_AUTOLOAD_MODULES = frozenset({"@fastify/autoload", "fastify-autoload"})


def _autoload_options(options: tree_sitter.Node) -> tuple[str, str | None] | None:
    """The folder (relative to the file: the last string of ``dir``'s ``path.join(__dirname, 'routes')``) and the
    prefix (``options: { prefix: '/api' }``) of Fastify's autoload options; None without a folder."""
    pairs = _pairs(options)
    where, settings = pairs.get("dir"), pairs.get("options")
    arguments = where.child_by_field_name("arguments") if where is not None and where.type == "call_expression" else None
    strings = [argument for argument in arguments.named_children if argument.type == "string"] if arguments else []
    folder = _literal(strings[-1]) if strings else ""
    if not folder:
        return None
    given = _pairs(settings).get("prefix") if settings is not None and settings.type == "object" else None
    return folder, _literal(given) if given is not None and given.type == "string" else None


def _pairs(node: tree_sitter.Node) -> dict[str, tree_sitter.Node]:
    """An object literal's values by their keys as written."""
    found = {}
    for pair in node.named_children:
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if pair.type == "pair" and key is not None and value is not None:
            found[_text(key)] = value
    return found


# warp's filters that name a route's method (``warp::get()``, ``warp::filters::method::post()``), and the one of
# a path parameter (``warp::path::param()``, ``warp::path::param::<u32>()``).
_WARP_METHOD = re.compile(r"(?:warp::)?(?:filters::)?(?:method::)?(get|post|put|patch|delete|head|options)")
_WARP_PARAM = re.compile(r"(?:warp::)?(?:filters::)?path::param(?:::<\s*(\w+)\s*>)?")
# The nodes of a chain of filters read for its route, at most: a chain is a few dozen.
WARP_CHAIN_NODES = 2_000


# The calls that end a chain of warp filters in its handler, and those whose argument is more of the chain.
_FILTER_ENDS = frozenset({"and_then", "map", "then"})
_FILTER_JOINS = frozenset({"and"})


def _filter_chain(
    path: tree_sitter.Node, climbed: set[tuple[int, int]]
) -> tuple[tree_sitter.Node, tree_sitter.Node, dict[str, list[tree_sitter.Node]]] | None:
    """The call that ends the chain of warp filters ``path`` is in with its handler (``.and_then(h)``, ``.map(|x| ...)``),
    the filters before it, and the capture of the handler named or written there; None when the chain
    ends in none, or when another path of the chain climbed it (``climbed``: the calls climbed so far; so a chain
    is one route, and each call is climbed once). Climbs the chain from its path, ``.and(...)``'s arguments
    included (``warp::get().and(warp::path!("sum"))``), at most ``MAX_NESTING`` calls."""
    current = path
    for _ in range(MAX_NESTING):
        parent = current.parent
        call = parent.parent if parent is not None else None
        if call is None or call.type != "call_expression" or (call.start_byte, call.end_byte) in climbed:
            return None
        climbed.add((call.start_byte, call.end_byte))
        function, arguments = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if function is None or arguments is None or function.type != "field_expression":
            return None
        name = _text(function.child_by_field_name("field")) if function.child_by_field_name("field") is not None else ""
        if parent == function and name in _FILTER_ENDS and arguments.named_child_count == 1:
            handler = arguments.named_children[0]
            kind = "block" if handler.type == "closure_expression" else "handler"
            if handler.type not in ("closure_expression", "identifier", "scoped_identifier"):
                return None
            return call, current, {kind: [handler]}
        if not (parent == function or (parent == arguments and name in _FILTER_JOINS)):
            return None
        current = call
    return None


def _warp_filters(chain: tree_sitter.Node) -> tuple[str, tuple[str, ...]]:
    """The route and methods of a chain of warp filters, read in order: ``warp::path!("todos" / u64)
    .and(warp::put())`` is PUT ``/todos/{u64}``, ``warp::path("hello").and(warp::path::param())`` is
    ``/hello/{param}``. The closures in it (a ``map`` of its own) are not read."""
    segments: list[str] = []
    methods: list[str] = []
    stack, read = [chain], 0
    while stack and read < WARP_CHAIN_NODES:
        node = stack.pop()
        read += 1
        if node.type == "macro_invocation":
            macro, tokens = node.child_by_field_name("macro"), node.named_children[-1] if node.named_children else None
            if macro is not None and _text(macro).rsplit("::", 1)[-1] == "path" and tokens is not None:
                segments += _warp_path_macro(tokens)
            continue
        if node.type == "closure_expression":
            continue
        if node.type == "call_expression" and (function := node.child_by_field_name("function")) is not None:
            called = _text(function)
            if (method := _WARP_METHOD.fullmatch(called)) is not None:
                methods.append(method.group(1).upper())
                continue
            if (param := _WARP_PARAM.fullmatch(called)) is not None:
                segments.append(f"{{{param.group(1) or 'param'}}}")
                continue
            arguments = node.child_by_field_name("arguments")
            if called in ("warp::path", "path") and arguments is not None and arguments.named_children:
                segments.append(_literal(arguments.named_children[0]))
                continue
        stack.extend(reversed(node.named_children))
    return "/" + "/".join(segment for segment in segments if segment), tuple(dict.fromkeys(methods))


def _warp_path_macro(tokens: tree_sitter.Node) -> list[str]:
    """The segments of warp's ``path!("todos" / u64 / "items")``: strings as written, a type a parameter
    (``{u64}``); ``..`` (the path goes on) none."""
    segments: list[str] = []
    for part in _text(tokens).strip("()[]{}").split("/"):
        part = part.strip()
        if part and part != "..":
            segments.append(part.strip('"') if part.startswith('"') else f"{{{part}}}")
    return segments


# A name in a macro's list of functions (``routes![hello, users::list]``).
_LISTED_NAME = re.compile(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*")


def _jsx_component(element: tree_sitter.Node) -> str:
    """The component a JSX element shows (``About`` of ``<About />`` and ``<About>...</About>``); "" for another node."""
    tag = element.child_by_field_name("open_tag") if element.type == "jsx_element" else element
    name = tag.child_by_field_name("name") if tag is not None and tag.type in ("jsx_opening_element", "jsx_self_closing_element") else None
    return _text(name) if name is not None else ""


def _captured(captures: dict[str, list[tree_sitter.Node]], found: re.Match[str]) -> str:
    """A route template's ``{@name}`` (``_CAPTURED``): the capture's text unquoted, or the one of its words it holds."""
    nodes = captures.get(found.group(1))
    if not nodes:
        return ""
    text = _literal(nodes[0])
    if found.group(2) is None:
        return text
    word = re.search(found.group(2), text)
    return word.group(0) if word is not None else ""


# The HTTP method a framework serves a kind of procedure, export or route with (tRPC's ``.query(...)`` is read with
# GET, its ``.mutation(...)`` POSTed; Remix's ``loader`` answers GET, its ``action`` POST; a Phoenix ``live`` route is
# opened with a GET, and so are Rails' and Hanami's ``root``); a subscription is no request.
_METHOD_WORDS = {
    "query": ("GET",), "mutation": ("POST",), "loader": ("GET",), "action": ("POST",), "live": ("GET",), "root": ("GET",),
}


def _methods(method: str) -> tuple[str, ...]:
    """``get``, ``GetMapping``, ``HttpGet``, ``MapGet``, ``'POST'``, ``MethodGet`` (Go's ``http.MethodGet``),
    a Razor page's handler (``OnGet``, ``OnPostDeleteAsync``) -> ``("GET",)``, an RPC procedure's kind
    (``query``, ``_METHOD_WORDS``); anything else none."""
    verb = method.strip(_QUOTES).upper().removesuffix("MAPPING").removeprefix("HTTP").removeprefix("MAP").removeprefix("METHOD")
    if verb in _VERBS:
        return (verb,)
    handler = _PAGE_HANDLER.fullmatch(method)
    if handler is not None:
        return (handler.group(1).upper(),)
    return _METHOD_WORDS.get(method, ())


# Where a name written in camel case starts a word (``GenerateCss``: ``Generate``, ``Css``; ``HTTPServer``: ``HTTP``, ``Server``).
_WORD_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
# A Razor page's handler method: On, its verb, the handler's name, perhaps Async.
_PAGE_HANDLER = re.compile(r"On(Get|Post|Put|Patch|Delete)\w*")


def _join(prefixes: list[str], path: str, *, rooted: bool = False) -> str:
    """A route under its prefixes, outermost first; a route without prefixes stays as written, but for the
    leading slash an HTTP route always has (``rooted``: NestJS's ``@Get('user')`` serves ``/user``)."""
    if not prefixes:
        return "/" + path if rooted and not path.startswith("/") else path
    parts = [part.strip("/") for part in (*prefixes, path)]
    return "/" + "/".join(part for part in parts if part)


def _file_route(path: str, spec: LanguageSpec) -> tuple[str, str, tuple[str, ...]] | None:
    """(framework, route, methods) when the file's path is its route: ``app/users/[id]/route.ts`` -> ``/users/[id]``."""
    for framework, pattern, methods, index, style in spec.file_routes:
        found = pattern.search(path)
        if found is not None:
            if style == "remix":
                return framework, _remix_route(found.group(1)), methods
            # A group named ``method`` is the method the file's name says (Nuxt's ``users/[id].get.ts``).
            method = found.group("method") if "method" in pattern.groupindex else None
            if method:
                methods = (method.upper(),)
            # The route is the pattern's other groups joined (Razor Pages' ``Areas/Identity/Pages/Account/Login``).
            parts = [group for number, group in enumerate(found.groups(), 1) if group and number != pattern.groupindex.get("method")]
            route = re.sub(r"/\([^/]*\)", "", "".join(parts)).removesuffix("/" + index)
            return framework, route or "/", methods
    return None


def _remix_route(name: str) -> str:
    """The route of a Remix (React Router) flat route module's name: its segments apart by dots (``[.]`` a dot
    of the path), ``$slug`` a parameter, ``$`` the rest of the path, ``(lang)`` an optional segment, ``_index``
    the index and a segment that starts with ``_`` a layout without a path (``_auth.login``: ``/login``), one
    that ends with ``_`` not nested in its parent's layout (``posts_.edit``: ``/posts/edit``)."""
    escaped = re.sub(r"\[([^\]]*)\]", lambda found: found.group(1).replace(".", "\0"), name)
    segments = []
    for segment in escaped.split("."):
        optional = segment.startswith("(") and segment.endswith(")")
        segment = segment.strip("()") if optional else segment
        if not segment or segment.startswith("_"):
            continue
        segment = segment.removesuffix("_")
        written = "*" if segment == "$" else ":" + segment[1:] if segment.startswith("$") else segment
        segments.append(written.replace("\0", ".") + ("?" if optional else ""))
    return "/" + "/".join(segments)


def _program(path: str, spec: LanguageSpec) -> str:
    """A program's name from its main file: its folder (``cmd/server/main.go``, a crate's ``src/main.rs``),
    or the file itself in a ``bin`` or ``examples`` folder (``src/bin/migrate.rs``, Cargo's
    ``examples/walk.rs`` is the example ``walk``) or in a language whose programs are files."""
    folders = posixpath.dirname(path).split("/")
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if (folders[-1] in ("bin", "examples") or spec.programs == "file") and stem != "main":
        return stem
    named = [folder for folder in folders if folder and folder != "src"]
    return named[-1] if named else stem


@dataclass
class _Around:
    """What sets the paths of the routes within or on it: path prefixes by the span of the node that sets
    them (``@prefixed``), Rails' resource blocks (``_Nesting``) and namespaces (their controllers' module),
    route groups bound to a name (``@group``), by the definition around them and that name, and routers
    mounted under a prefix (``@mount``): a group when the file makes the router, else a ``Mount`` of the
    module it imports, whose routes the repository pass prefixes (``rag.analysis.entrypoints.mounts``)."""

    # The modules the file imports by the name it binds them to (``users`` of ``const users = require('./users')``).
    imported: dict[str, str] = field(default_factory=dict)
    prefixes: _Spans[str] = field(default_factory=_Spans)
    # The name a call that sets a prefix is made on, by its span (``todos`` of Swift's ``todos.group(":id") { ... }``).
    prefix_receivers: dict[tuple[int, int], str] = field(default_factory=dict)
    nestings: dict[tuple[int, int], _Nesting] = field(default_factory=dict)
    modules: dict[tuple[int, int], str] = field(default_factory=dict)
    # (the definition around it, the name a group is bound to) -> (its prefix, the name it was made from)
    groups: dict[tuple[str, str], tuple[str, str | None]] = field(default_factory=dict)
    mounts: list[Mount] = field(default_factory=list)
    # The names the file binds to what makes an app or a router (``apiv1`` of ``var apiv1 = express.Router()``).
    routers: set[str] = field(default_factory=set)
    # The controller of a group by its span (Laravel's ``Route::controller(OrderController::class)->group(...)``).
    controllers: _Spans[str] = field(default_factory=_Spans)
    # The roots of chains of calls by their span, with their path and what they are called on (Express's
    # ``app.route('/book')``, actix-web's ``web::scope("/api")``), and the calls on such chains read before
    # every root is known (actix's ``.service(index)``).
    chain_roots: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    # The declarations whose routes another service serves (Spring Cloud's ``@FeignClient`` interfaces): their
    # mappings are calls of that service, not entrypoints of this one.
    clients: _Spans[bool] = field(default_factory=_Spans)
    # The area of a declaration by its span (ASP.NET's ``[Area("Admin")]`` on a controller): ``[area]`` in its routes.
    areas: _Spans[str] = field(default_factory=_Spans)
    # The API version of a declaration by its span (NestJS's controller ``version`` and route ``@Version``).
    versions: _Spans[str] = field(default_factory=_Spans)
    # The names the file binds to an HTTP client (``const api = axios.create()``): what is called on them
    # is a request to a server, not a route of one.
    http_clients: set[str] = field(default_factory=set)
    scoped: list[tuple[tree_sitter.Node, str, str, int]] = field(default_factory=list)

    def read(self, captures: dict[str, list[tree_sitter.Node]], definitions: _Definitions, unit: str) -> bool:
        """Takes in a match that sets a prefix, makes a group, makes or mounts a router; whether it was one."""
        if "chain_root" in captures:
            node = captures["chain_root"][0]
            app = _text(captures["app"][0]) if "app" in captures else ""
            self.chain_roots[(node.start_byte, node.end_byte)] = (_literal(captures["path"][0]), app)
            return True
        if "http_client" in captures:
            self.http_clients.add(_text(captures["http_client"][0]))
            return True
        # A declaration's API version (NestJS's) or area (ASP.NET's), for the routes in it.
        for marked, value, spans in (("versioned", "version", self.versions), ("areaed", "area", self.areas)):
            if marked in captures:
                node = captures[marked][0]
                spans[(node.start_byte, node.end_byte)] = _literal(captures[value][0])
                return True
        if "client" in captures:
            node = captures["client"][0]
            self.clients[(node.start_byte, node.end_byte)] = True
            return True
        if "controlled" in captures:
            node = captures["controlled"][0]
            self.controllers[(node.start_byte, node.end_byte)] = _text(captures["controller"][0])
            return True
        if "router" in captures:
            node = captures["router"][0]
            self.routers.add(_text(node))
            if "prefix" in captures:
                # A router made with its prefix (Koa's ``new Router({ prefix: '/api' })``): a group of that name.
                self.groups[(_scope(node, definitions, unit), _text(node))] = (_literal(captures["prefix"][0]), None)
            return True
        kind = next((name for name in captures if name.partition(".")[0] == "mount"), None)
        if kind is not None:
            node = captures[kind][0]
            prefix = _literal(captures["prefix"][0]) if "prefix" in captures else None
            scope, parent, line = _scope(node, definitions, unit), _text(captures["parent"][0]) if "parent" in captures else "", node.start_point[0] + 1
            mounted = _text(captures["mounted"][0]) if "mounted" in captures else ""
            if kind == "mount.global":
                # NestJS's ``app.setGlobalPrefix('api')``: the path the application serves its routes under, as a
                # JVM server's configured context path is.
                self.mounts.append(Mount("context_path", "nestjs", "", prefix, scope, line))
            elif kind == "mount.command":
                # cobra's ``parent.AddCommand(child)``: the child as written, a variable or the function called.
                self.mounts.append(Mount("add_command", parent, mounted, None, scope, line))
            elif kind == "mount.command_variable":
                self.mounts.append(Mount("command_variable", mounted, "", None, scope, line))
            elif kind == "mount.nested":
                # axum's ``.nest("/api", users::router())``: the routes the function called makes, under the prefix.
                called_at = captures["mounted"][0].start_point[0] + 1  # a chain's call is on its own line
                self.mounts.append(Mount("nest", parent, mounted, prefix, scope, called_at))
            elif kind == "mount.module":
                # NestJS's ``RouterModule.register([{ path, module }])``: that module's controllers under the path
                # and the paths of the routes whose ``children`` hold it.
                paths = _router_module_paths(node)
                if paths is not None:
                    self.mounts.append(Mount("router_module", "", mounted, "/".join((*paths, prefix or "")), scope, line))
            elif kind == "mount.controllers":
                # NestJS's ``@Module({ controllers: [...] })`` on the module class ``parent``.
                self.mounts.append(Mount("module_controller", parent, mounted, None, scope, line))
            elif kind == "mount.versioning":
                # NestJS's ``app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1', prefix: 'v' })``.
                if (versioning := _uri_versioning(captures["options"][0])) is not None:
                    self.mounts.append(Mount("versioning", parent, versioning[0], versioning[1], scope, line))
            elif kind == "mount.base_path":
                # Next.js's ``basePath: '/docs'`` (kept for its configuration file only: ``_entrypoints``).
                self.mounts.append(Mount("context_path", "nextjs", "", prefix, scope, line))
            elif kind == "mount.autoload":
                # Fastify's ``register(AutoLoad, { dir: path.join(__dirname, 'routes'), options: { prefix } })``.
                if self.imported.get(mounted) in _AUTOLOAD_MODULES and (read := _autoload_options(captures["options"][0])):
                    self.mounts.append(Mount("autoload", parent, read[0], read[1], scope, line))
            elif kind == "mount.trpc":
                # tRPC's ``createTRPCRouter({ post: postRouter })``: the procedures of the module ``postRouter`` is
                # imported from, under ``post``.
                if mounted in self.imported:
                    self.mounts.append(Mount("procedures", parent, self.imported[mounted], prefix, scope, line))
            elif kind == "mount.listed":
                # Rocket's ``.mount("/api", routes![hello, users::list])``: the routes each function listed handles,
                # under the base, as a scope's services are.
                for name in _LISTED_NAME.findall(mounted):
                    self.mounts.append(Mount("scope", "", name, prefix, scope, line))
            elif kind == "mount.scoped":
                # actix-web's ``web::scope("/api").service(index)``: the routes ``index`` is the handler of, under the
                # scope's prefix (``scoped_mounts``, once every chain's root is known).
                self.scoped.append((captures["chained"][0], mounted, scope, captures["mounted"][0].start_point[0] + 1))
            elif "mounted_module" in captures or mounted in self.imported:
                module = _literal(captures["mounted_module"][0]) if "mounted_module" in captures else self.imported[mounted]
                self.mounts.append(Mount("use", parent, module, prefix, scope, line))
            else:
                # A router made with a prefix of its own (Hono's ``new Hono().basePath('/api')``, Koa's ``prefix``)
                # serves under it, below the prefix it is mounted at.
                own = self.groups.get((scope, mounted))
                below = own[0] if own is not None and own[1] is None else None
                self.groups[(scope, mounted)] = (_join([prefix or ""], below) if below else prefix, parent)
            return True
        if "prefix" in captures and "prefixed" in captures:
            node = captures["prefixed"][0]
            span = (node.start_byte, node.end_byte)
            if "resource_kind" in captures:
                # A resource's block: the match that names its ``param:`` wins over the one that does not.
                if span not in self.nestings or "param" in captures:
                    self.nestings[span] = _Nesting.of(
                        _literal(captures["prefix"][0]), _text(captures["resource_kind"][0]) == "resource",
                        _literal(captures["param"][0]) if "param" in captures else "",
                    )
                    self.prefixes[span] = self.nestings[span].nested
            else:
                self.prefixes[span] = _literal(captures["prefix"][0])
                if (receiver := _call_receiver(node)) is not None:
                    self.prefix_receivers[span] = receiver
                if "module" in captures:
                    self.modules[span] = _literal(captures["module"][0]).strip("/")
            return True
        if "prefix" in captures and "group" in captures:
            node = captures["group"][0]
            scope, text = _scope(node, definitions, unit), _text(node)
            # Each component of the group's path (Vapor's ``grouped("api", "v1")``), on what it is made from.
            group = ("/".join(_literal(part) for part in captures["prefix"]), _call_receiver(node))
            # A route or group called on the group in place (``app.grouped("api").get(...)``) is called on its text.
            self.groups[(scope, text)] = group
            bound = _bound_name(node)
            # A name bound to a chain of groups is the chain's last: no link inside it takes the name from it.
            if bound is not None and self.groups.get((scope, bound), ("", None))[1] != text:
                self.groups[(scope, bound)] = group
            return True
        return False

    def chain_root(self, node: tree_sitter.Node) -> tuple[str, str] | None:
        """The path and receiver of the chain's root that ``node`` (a call) is or is called on, if any."""
        root = self._root_call(node)
        return self.chain_roots[(root.start_byte, root.end_byte)] if root is not None else None

    def _root_call(self, node: tree_sitter.Node) -> tree_sitter.Node | None:
        """The call that is the root of the chain ``node`` is or is called on, if any."""
        current: tree_sitter.Node | None = node
        while current is not None and current.type in ("call_expression",):
            if (current.start_byte, current.end_byte) in self.chain_roots:
                return current
            function = current.child_by_field_name("function")
            current = function.child_by_field_name("object") or function.child_by_field_name("value") if function is not None else None
        return None

    def scope_paths(self, node: tree_sitter.Node) -> list[str]:
        """The paths of the scopes a call on a chain is under, outermost first: its chain's root, and the
        roots of the chains that root is registered on, an argument of their call (actix-web's
        ``web::scope("/api").service(web::scope("/v1").route(...))``)."""
        paths: list[str] = []
        root = self._root_call(node)
        while root is not None:
            paths.append(self.chain_roots[(root.start_byte, root.end_byte)][0])
            # Up the chain the root starts, to its last call; when that is an argument of a call on another
            # chain, on along that one.
            holder = root.parent
            while holder is not None and holder.type in ("field_expression", "call_expression"):
                holder = holder.parent
            root = self._root_call(holder.parent) if holder is not None and holder.type == "arguments" and holder.parent is not None else None
        return paths[::-1]

    def scoped_mounts(self) -> list[Mount]:
        """The mounts of the calls on chains whose root is a scope (actix-web's ``.service(index)``)."""
        return [
            Mount("scope", "", mounted, root[0], scope, line)
            for node, mounted, scope, line in self.scoped
            if (root := self.chain_root(node)) is not None
        ]

    def version_of(self, node: tree_sitter.Node) -> str:
        """The version of a route: its own (``@Version('3')`` on it), else its controller's; "" for none."""
        own = self.versions.get((node.start_byte, node.end_byte))
        if own is not None:
            return own
        spans = self.versions.chain(node)
        return self.versions[spans[-1]] if spans else ""

    def area_of(self, node: tree_sitter.Node) -> str:
        """The area of the innermost declaration with one around ``node``; "" for none."""
        spans = self.areas.chain(node)
        return self.areas[spans[-1]] if spans else ""

    def controller_of(self, node: tree_sitter.Node) -> str | None:
        """The controller of the innermost controller group around ``node``, if any."""
        spans = self.controllers.chain(node)
        return self.controllers[spans[-1]] if spans else None

    def prefixes_of(self, node: tree_sitter.Node, scope: str, on: str) -> tuple[list[str], str, _Nesting | None]:
        """The path prefixes of a route at ``node`` (outermost first), the module of its Rails controller
        (``admin/``) and the resource whose block holds it; ``on`` is Rails' ``on:`` (``collection``, ``member``)."""
        spans = self.prefixes.chain(node)
        # A prefix set by a call on a group bound to a name (Vapor's ``todos.group(":id") { todo in ... }`` with
        # ``let todos = routes.grouped("todos")``) is under that group's prefixes.
        outer = [
            prefix for span in spans
            for prefix in (*_group_prefixes(self.prefix_receivers.get(span), scope, self.groups), self.prefixes[span])
        ]
        module = "".join(f"{self.modules[span]}/" for span in spans if span in self.modules)
        nesting = self.nestings.get(spans[-1]) if spans else None
        if nesting is not None:
            # Rails' ``get :feed`` in a resource's block: on its collection, on a member, or nested (the default).
            outer[-1] = {"collection": nesting.collection, "member": nesting.member}.get(on, nesting.nested)
        return outer + _group_prefixes(_call_receiver(node), scope, self.groups), module, nesting


def _router_module_paths(route: tree_sitter.Node) -> list[str] | None:
    """The paths of the routes around a route object of NestJS's ``RouterModule.register([...])``, outermost
    first; None when the object is in no such call. Walks up its parents: rare, small structures."""
    paths: list[str] = []
    node = route.parent
    while node is not None:
        if node.type == "object":
            for pair in node.named_children:
                key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
                if pair.type == "pair" and key is not None and value is not None and _text(key) == "path" and value.type == "string":
                    paths.append(_literal(value))
        elif node.type == "call_expression":
            function = node.child_by_field_name("function")
            return paths[::-1] if function is not None and _text(function) == "RouterModule.register" else None
        node = node.parent
    return None


def _merged(found_at: dict[tuple[int, int, str], list[tuple[int, dict[str, list[tree_sitter.Node]]]]]):
    """Per node and kind, the pattern of the match with the most captures and the captures of all its matches
    merged (each of Fastify's route options is a pattern of its own; each element of Rails' ``only: [...]``
    may come in a match of its own), and the other paths of a list of them (Spring's
    ``@GetMapping({"/vets", "/vets.html"})``: a route each)."""
    best: dict[tuple[int, int, str], tuple[int, dict[str, list[tree_sitter.Node]]]] = {}
    more_paths: dict[tuple[int, int, str], list[tree_sitter.Node]] = {}
    for key, found_matches in found_at.items():
        found_matches.sort(key=lambda match: -len(match[1]))
        merged: dict[str, list[tree_sitter.Node]] = {}
        for _, captures in found_matches:
            for name, nodes in captures.items():
                if name in _LIST_CAPTURES:
                    merged[name] = list({n.id: n for n in (*merged.get(name, ()), *nodes)}.values())
                else:
                    merged.setdefault(name, nodes)
        best[key] = (found_matches[0][0], merged)
        if "path" in merged:
            first = merged["path"][0]
            others = [other for _, captures in found_matches for other in captures.get("path", ()) if other.id != first.id]
            # A node's parent costs its depth (``_Spans``): asked only of other paths, which are rare.
            holder = first.parent if others else None
            siblings = {
                (other.start_byte, other.end_byte): other for other in others
                if holder is not None and other.parent is not None and other.parent.id == holder.id
            }
            more_paths[key] = [siblings[span] for span in sorted(siblings)]
    return best, more_paths


def _resource_routes(
    framework: str, route: str, outer: list[str], written: str, module: str, captures: dict[str, list[tree_sitter.Node]],
    default_param: str, lines: dict[str, Any],
) -> list[Entrypoint]:
    """A REST resource's conventional routes (``_RESOURCE_ROUTES``): a singular one's (Rails' ``resource
    :profile``, whose controller is ``profiles``) without an index or an id; but the actions of ``only:``,
    less those of ``except:``. Handled by the controller as ``written``, else named for the resource in
    ``module`` (Rails' ``admin/photos``). A controller written as a class (Laravel's ``UserController::class``,
    Phoenix's ``UserController``) has its actions written as its methods, ``UserController@index``; Rails' as
    its routes write them, ``admin/photos#index``."""
    singular = "resource_kind" in captures and _text(captures["resource_kind"][0]) == "resource"
    param = f":{_literal(captures['param'][0])}" if "param" in captures else default_param
    only = {_literal(option) for option in captures.get("only", ())}
    excluded = {_literal(option) for option in captures.get("except", ())}
    name = route.rsplit("/", 1)[-1]
    controller = written or module + (_plural(name) if singular else name)
    separator = "@" if controller[:1].isupper() else "#"
    names = _RESOURCE_ACTION_NAMES.get(framework, {})
    return [
        Entrypoint(
            entry_type="http_route", framework=framework,
            route_or_command=_join([*outer, "/"], route + ("" if singular else suffix.format(param=param))),
            handler=None, methods=methods, handler_raw=f"{controller}{separator}{named}", **lines,
        )
        for action, methods, suffix in _RESOURCE_ROUTES
        for named in (names.get(action, action),)
        if not ((only and named not in only) or named in excluded or (singular and action == "index"))
    ]


def _entrypoints(
    path: str, spec: LanguageSpec, root: tree_sitter.Node, definitions: _Definitions, unit: str,
    imported: dict[str, str], declared: dict[tuple[str, str], str],
) -> tuple[tuple[Entrypoint, ...], tuple[Mount, ...], list[tree_sitter.Node]]:
    """The file's entrypoints, the routers it mounts from other modules (``_Around``), and the names of the
    methods handlers given as values name (``Show`` of ``h.Show``) when the file does not define them.
    A handler given as a method reference (Java's ``handler::get``, ``this::get``) is that method of the
    type ``declared`` says the name has there, or of the file's own class."""
    query = _entrypoints_query(spec)
    if query is None or (spec.build_scripts is not None and spec.build_scripts.search(path)):
        return (), (), []
    by_name: dict[str, str] = {}
    for definition in definitions.values():
        by_name.setdefault(definition.name, definition.qname)
    around = _Around(imported)
    used: set[str] = set()
    # The matches of each node and kind, read together (``_merged``).
    found_at: dict[tuple[int, int, str], list[tuple[int, dict[str, list[tree_sitter.Node]]]]] = {}
    for pattern, captures in _matches(query, root):
        if around.read(captures, definitions, unit):
            continue
        used.update(name.split(".", 1)[1] for name in captures if name.startswith("uses."))
        kind = next((name for name in captures if name == "main" or name.split(".", 1)[0] in ("route", "resource", "command")), None)
        if kind is None:
            continue
        node = captures[kind][0]
        found_at.setdefault((node.start_byte, node.end_byte, kind), []).append((pattern, captures))
    best, more_paths = _merged(found_at)
    file_route = _file_route(path, spec)
    declared_in = dict(spec.framework_files)
    found: list[Entrypoint] = []
    handler_values: list[tree_sitter.Node] = []
    climbed: set[tuple[int, int]] = set()
    for key, (pattern, captures) in sorted(best.items()):
        kind, siblings = key[2], more_paths.get(key, [])
        settings = query.pattern_settings(pattern)
        node = captures[kind][0]
        # warp's chain of filters says its route and methods (``warp::path!("todos").and(warp::get())``).
        filtered: tuple[str, tuple[str, ...]] | None = None
        if settings.get("filters"):
            if settings.get("requires") and settings["requires"] not in used:
                continue
            # A path of warp's filters: the route is its chain's, to the handler (each chain climbed once).
            chained = _filter_chain(node, climbed)
            if chained is None:
                continue
            node, filters, handler_capture = chained
            filtered = _warp_filters(filters)
            captures = {**captures, **handler_capture}
        start = node.start_point[0]
        if "path" in captures and node.child_by_field_name("function") is not None:
            # A call in a chain starts where the chain does (``Router::new()`` above ``.route("/x", ...)``): the
            # route's own lines start at its path.
            start = max(start, captures["path"][0].start_point[0])
        lines = {"path": path, "start_line": start + 1, "end_line": max(start, _last_row(node)) + 1}
        owner = definitions.get((node.start_byte, node.end_byte))
        if kind == "main":
            # A main that is no definition (C#'s top-level statements) is the code written in place.
            found.append(Entrypoint(
                entry_type="cli_command", framework="main", route_or_command=_program(path, spec),
                handler=owner.qname if owner else None,
                handler_raw="main" if owner else f"block at {path}:{lines['start_line']}", **lines,
            ))
            continue
        role, framework = kind.split(".", 1)
        if role == "route" and around.clients.chain(node):
            continue
        # Of the first of the frameworks the file uses (``koa hono``).
        framework = next((each for each in str(settings.get("when_used") or "").split() if each in used), framework)
        if framework in declared_in and not declared_in[framework].search(path):
            continue
        if settings.get("requires") and settings["requires"] not in used:
            continue
        if any(name not in captures for name in str(settings.get("needs") or "").split()):
            continue
        # A call on a chain (``app.route('/book').get(h)``) takes the path and the receiver of the chain's root.
        chain = around.chain_root(captures["chained"][0]) if "chained" in captures else None
        if "chained" in captures and chain is None:
            continue
        if settings.get("receiver") and ("app" in captures or chain is not None):
            # Called on what the pattern's receivers are named, or on what the file made an app or router.
            receiver = chain[1] if chain is not None else _text(captures["app"][0])
            if receiver in around.http_clients or (receiver not in around.routers and not re.search(str(settings["receiver"]), receiver)):
                continue
        # A handler as written, to its first line (a call may take a function literal); of a JSX element shown
        # (React Router's ``element: <About />``), its component.
        written = _literal(captures["handler"][0]).split("\n", 1)[0] if "handler" in captures else ""
        if not written and "element" in captures:
            written = _jsx_component(captures["element"][0])
        if written and "handler_action" in captures:
            # A controller and its action written apart (Phoenix's ``UserController, :show``): ``UserController@show``.
            written = f"{written}@{_literal(captures['handler_action'][0]).lstrip(':')}"
        elif written and settings.get("action"):
            # A module whose callback handles the route (a Phoenix LiveView's ``mount``): ``ThermostatLive@mount``.
            written = f"{written}@{settings['action']}"
        controller = around.controller_of(node) if written and _BARE_NAME.fullmatch(written) else None
        if (reference := _METHOD_REFERENCE.fullmatch(written)) is not None:
            # Declared in the definition around the route, or around that (a field of the class).
            scope, typed = _scope(node, definitions, unit), ""
            while scope and not typed:
                typed = declared.get((scope, reference.group(1)), "")
                scope = scope.rsplit(".", 1)[0] if "." in scope else ""
            written = reference.group(2) if reference.group(1) == "this" else f"{typed}::{reference.group(2)}" if typed else written
        if controller is not None:
            written = f"{controller}@{written}"  # an action named alone in a controller group
        # An annotated definition is its own handler (Spring, ASP.NET, clap); a handler named in a
        # registration call is a definition of this file when one has that name (a handler made by a
        # call, ``GreetHandler(ctx)``, is the function called), else none: the code around it is no
        # handler; a block written in place is its own handler, which has no name; else the code around.
        if owner is not None:
            handler: str | None = owner.qname
        elif written:
            handler = by_name.get(written) or by_name.get(MADE_BY_CALL.sub(r"\1", written))
            wrapped = _WRAPPED.fullmatch(written)
            if handler is None and wrapped is not None:
                handler = by_name.get(wrapped.group(1))  # a library's wrapper of the file's function: http.HandlerFunc(static)
            value = captures["handler"][0] if "handler" in captures else None
            if handler is None and value is not None and METHOD_VALUE.fullmatch(written) and value.named_child_count > 1:
                handler_values.append(value.named_children[-1])
        elif "block" in captures:
            block = captures["block"][0]
            handler, written = None, f"block at {path}:{block.start_point[0] + 1}"
        else:
            handler = _scope(node, definitions, unit)
        handler_or_none = handler if handler != unit else None
        route = chain[0] if chain is not None else _literal(captures["path"][0]) if "path" in captures else ""
        if filtered is not None:
            route = filtered[0]
        if "scoped" in captures:
            # Called on a chain that may start at a scope (actix-web's ``web::scope("/api").route("/users", ...)``),
            # or at a resource that is its path, perhaps in a scope (``web::resource("/users").route(...)``).
            scopes = around.scope_paths(captures["scoped"][0])
            route = _join(scopes[:-1] if chain is not None else scopes, route)
        if settings.get("strip"):
            route = re.sub(str(settings["strip"]), "", route)
        if settings.get("route"):
            # Named by a form of the pattern's own (a GraphQL field, ``{@root}.{lower}``: gqlgen's ``Todos`` of the
            # ``queryResolver`` is ``Query.todos``).
            camel = re.sub(r"_+([a-z0-9])", lambda part: part.group(1).upper(), route)
            named = str(settings["route"]).replace("{lower}", route[:1].lower() + route[1:]).replace("{camel}", camel)
            named = named.replace("{snake}", _WORD_BOUNDARY.sub("_", route).lower())
            named = named.replace("{kebab}", _WORD_BOUNDARY.sub("-", route).lower()).replace("{}", route)
            route = _CAPTURED.sub(lambda found: _captured(captures, found), named)
        # Every method a list names (Symfony's ``methods: ['GET', 'POST']``).
        method = tuple(dict.fromkeys(verb for node in captures.get("method", ()) for verb in _methods(_text(node))))
        if filtered is not None:
            method = filtered[1]
        verb_first = _VERB_FIRST.fullmatch(route)
        if verb_first is not None and not method:
            # A pattern of Go 1.22's ServeMux names its method: ``mux.HandleFunc("GET /items/{id}", h)``.
            method, route = (verb_first.group(1),), verb_first.group(2)
        if settings.get("entry_type") == "task":
            # A task (a scheduled method, a listener of a topic or queue) is named by its topic or queue, else
            # by its handler, whatever prefix a class around it gives its routes.
            found.extend(
                Entrypoint(
                    entry_type="task", framework=framework, route_or_command=each, handler=handler_or_none,
                    handler_raw=written or handler_or_none or "", **lines,
                )
                for each in ([route, *(_literal(other) for other in siblings)] if route else [handler_or_none or written])
                if each
            )
            continue
        if role == "command":
            command = (route.split() or [_program(path, spec)])[0]
            if settings.get("join"):
                # Named under the names of the blocks around it (Rake's ``namespace :db do task :seed ...``: ``db:seed``).
                outer, _, _ = around.prefixes_of(node, _scope(node, definitions, unit), "")
                command = str(settings["join"]).join([*(prefix.lstrip(":") for prefix in outer), command])
            found.append(Entrypoint(
                entry_type="cli_command", framework=framework, route_or_command=command,
                handler=handler_or_none, handler_raw=written or handler_or_none or "", **lines,
            ))
            continue
        on = _literal(captures["on"][0]) if "on" in captures else ""
        outer, module, nesting = around.prefixes_of(node, _scope(node, definitions, unit), on if role == "route" else "")
        if role == "route" and (version := around.version_of(node)):
            outer = [VERSION_TOKEN.format(version), *outer]
        if role == "resource":
            found += _resource_routes(framework, route, outer, written, module, captures, str(settings.get("param") or ":id"), lines)
            continue
        if nesting is not None:
            written = written or f"{module}{nesting.controller}#{route}"
        if "action" in captures and "path" not in captures and spec.conventional_route:
            # A controller's action that names no route: its class's route (attribute routing), else the
            # app's conventional one.
            route = "" if outer else spec.conventional_route
        elif "path" not in captures and filtered is None and not outer and chain is None:
            # A file route's export (``@route.file``) is of the framework its file route names.
            if file_route is None or framework not in ("file", file_route[0]):
                continue
            framework, route, method = file_route[0], file_route[1], method or file_route[2]
        entry_type = settings.get("entry_type") or "http_route"
        found.extend(
            Entrypoint(
                entry_type=entry_type,  # type: ignore[arg-type]
                framework=framework,
                route_or_command=_named_by_handler(
                    _in_area(_join(outer, each, rooted=entry_type == "http_route"), around.area_of(node)), handler_or_none, spec,
                ),
                handler=handler_or_none, methods=method,
                handler_raw=written or (_text(captures["method"][0]) if "method" in captures else ""), **lines,
            )
            for each in [route, *(_literal(other) for other in siblings)]
        )
    found = _under_file_prefixes(path, spec, found)
    if file_route is not None and not any(entry.framework == file_route[0] for entry in found):
        # A file route with no handler found in it serves the methods its rule says (every method when none).
        found.append(Entrypoint(
            entry_type="http_route", framework=file_route[0], route_or_command=file_route[1], handler=None,
            methods=file_route[2], path=path, start_line=1, end_line=max(0, _last_row(root)) + 1, handler_raw="default",
        ))
    # Next.js's ``basePath`` is its configuration file's alone.
    mounts = [mount for mount in around.mounts if mount.parent != "nextjs" or _NEXT_CONFIG.search(path)]
    return tuple(found), (*mounts, *around.scoped_mounts()), handler_values


def _under_file_prefixes(path: str, spec: LanguageSpec, found: list[Entrypoint]) -> list[Entrypoint]:
    """The routes with the prefix their framework serves their file's routes under (``file_prefixes``: Laravel's
    ``routes/api.php`` under ``/api``), unless the file puts one of its routes there itself (an application
    whose routes file sets the prefix is served without the framework's)."""
    for framework, files, prefix in spec.file_prefixes:
        if not files.search(path):
            continue
        routes = [entry.route_or_command for entry in found if entry.framework == framework and entry.entry_type == "http_route"]
        if any(route == prefix or route.startswith(prefix + "/") for route in routes):
            continue
        found = [
            replace(entry, route_or_command=_join([prefix], entry.route_or_command, rooted=True))
            if entry.framework == framework and entry.entry_type == "http_route" else entry
            for entry in found
        ]
    return found


def _in_area(route: str, area: str) -> str:
    """The route with ASP.NET's ``[area]`` token the area of its controller (``@areaed``), or left out with the
    slash after it where there is none."""
    if "[area]" not in route:
        return route
    return route.replace("[area]", area) if area else re.sub(r"\[area\]/?", "", route)


def _named_by_handler(route: str, handler: str | None, spec: LanguageSpec) -> str:
    """The route with its tokens (``route_tokens``: ASP.NET's ``[controller]``) replaced by the names of its
    handler and of the handler's class: ``api/[controller]`` of ``OrdersController.List`` is ``api/Orders``."""
    names = handler.split(".") if handler else []
    for token, of, strip in spec.route_tokens:
        if token in route and len(names) > 1:
            route = route.replace(token, (names[-2] if of == "class" else names[-1]).removesuffix(strip))
    return route


@dataclass(frozen=True)
class _Nesting:
    """The paths of a Rails resource whose block nests routes (``resources :articles, param: :slug do``):
    its ``collection`` (``articles``), a ``member`` (``articles/:slug``) and what its block nests under
    (``articles/:article_slug``); a singular resource (``resource :profile``) has one path for all three."""

    collection: str
    member: str
    nested: str
    controller: str

    @classmethod
    def of(cls, name: str, singular: bool, param: str) -> _Nesting:
        if singular:
            return cls(name, name, name, _plural(name))
        return cls(name, f"{name}/:{param or 'id'}", f"{name}/:{_singular(name)}_{param or 'id'}", name)


def _singular(word: str) -> str:
    """English's regular singular: ``categories`` -> ``category``, ``boxes`` -> ``box``, ``articles`` -> ``article``."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if re.search(r"(?:s|x|z|ch|sh)es$", word):
        return word[:-2]
    return word.removesuffix("s")


def _plural(word: str) -> str:
    """English's regular plural: ``category`` -> ``categories``, ``box`` -> ``boxes``, ``user`` -> ``users``."""
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(?:s|x|z|ch|sh)$", word):
        return word + "es"
    return word + "s"


# The nodes of a chain of calls (``app.MapGroup("x").WithTags("y")``) and of the right side of a binding.
_CHAIN = frozenset({
    "invocation_expression", "member_access_expression", "call_expression", "selector_expression", "member_expression",
    "expression_list", "equals_value_clause", "navigation_expression",
})


def _bound_name(node: tree_sitter.Node) -> str | None:
    """The name the value of a chain of calls starting with ``node`` is bound to: ``api`` of C#'s
    ``var api = app.MapGroup("x").HasApiVersion(1.0)``, ``v1`` of Go's ``v1 := r.Group("/v1")``."""
    current = node
    while current.parent is not None and current.parent.type in _CHAIN:
        current = current.parent
    holder = current.parent
    target = None if holder is None else holder.child_by_field_name("name") or holder.child_by_field_name("left")
    if target is not None and target.type in ("expression_list", "pattern"):
        # The first of several names (Go's ``v1, err :=``), or the name a pattern binds (Swift's ``let todos =``).
        target = target.named_children[0] if target.named_children else None
    return _text(target) if target is not None and target.type in _NAMES else None


# The nodes that are a name as written: most grammars' ``identifier``, Swift's ``simple_identifier``.
_NAMES = frozenset({"identifier", "simple_identifier"})


def _call_receiver(node: tree_sitter.Node) -> str | None:
    """The name or call a call is made on: ``api`` of ``api.MapGet("/x", h)``, ``todos`` of Swift's ``todos.get(use: index)``
    (whose route is the call's arguments), ``app.grouped("api")`` of ``app.grouped("api").get(...)``; None for anything else."""
    while node.type in ("value_arguments", "call_suffix") and node.parent is not None:
        node = node.parent
    function = node.child_by_field_name("function")
    if function is not None:
        target = function.named_children[0] if function.named_children else None
    else:
        # Swift's call names no function: its callee is the navigation before its arguments.
        callee = node.named_children[0] if node.named_children else None
        target = callee.child_by_field_name("target") if callee is not None and callee.type == "navigation_expression" else None
    return _text(target) if target is not None and target.type in _RECEIVERS else None


# What a route or group may be called on: a name, or a call (a group made in place, Vapor's ``app.grouped("api")``).
_RECEIVERS = _NAMES | {"call_expression", "invocation_expression"}


def _group_prefixes(receiver: str | None, scope: str, groups: dict[tuple[str, str], tuple[str, str | None]]) -> list[str]:
    """The prefixes of the group a route is called on and of the groups it was made from, outermost first."""
    found: list[str] = []
    seen: set[str] = set()
    while receiver is not None and receiver not in seen and (scope, receiver) in groups:
        seen.add(receiver)
        prefix, receiver = groups[(scope, receiver)]
        found.insert(0, prefix)
    return found
