"""Languages other than Python, read with tree-sitter: one folder per language, one walker for all.

Each folder holds a ``language.toml`` (file suffixes, the grammar package and
its language function, where its tags query comes from, test-file patterns)
and, for grammars that ship no tags query, a ``tags.scm`` of its own (a folder's ``*.own.scm`` queries are read by
its language only, not by the languages that extend it). The
queries capture definitions (``@definition.class``, ``@definition.function``,
``@definition.method`` ...) and references (``@reference.call`` ...) with a
``@name``, the convention of the grammars' own ``queries/tags.scm``. Three
captures of our own name things the way the language does: ``@receiver``
beside a definition's ``@name`` puts it under that type (a Go method), beside a
reference's it is what the name is called on (the path of Rust's ``WalkBuilder::new()``),
``@container`` with a ``@name`` is a scope that is no symbol of its own (a
Rust ``impl`` block, whose functions are methods; ``@container.namespace``, a C++
namespace, whose functions stay functions), and ``@package`` is the file's namespace (Java,
Kotlin, C#, PHP), in the ``@namespace`` declaration that is no symbol;
``@global`` beside a definition names it at the file's top level whatever
encloses it (a C or C++ preprocessor macro knows no namespace). The
walker turns the captures into the records the Python analysis produces:
symbols with their parents, docs and signatures, blocks for chunking, and the
file's facts (its calls and type references) that the repository pass
resolves into edges. A tags pattern's ``(#set! strip "regex")`` removes what matches from
its names (``:name`` of Ruby's ``attr_reader :name`` is the method ``name``). Adding a language is a
folder.

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
``{snake}`` a camel-case name in snake case (Mix's ``Db.Seed`` task is ``db.seed``), ``{@root}`` the text of the capture ``@root``), ``(#set! entry_type "rpc_service")`` overrides the kind (``task``: a scheduled
method or a listener of a topic or queue, named by its ``@path`` captures, else by its handler), ``(#set! param
"{id}")`` names a resource's member parameter, ``(#set! filters "warp")`` marks the path of a chain of warp's
filters (``warp::path!("todos")``), whose route, methods and handler are the chain's (``_filter_chain``), ``(#set! needs "path method _handler")`` makes it an
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

import bisect
import importlib
import importlib.resources
import posixpath
import re
import time
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pathspec
import tree_sitter

from rag.analysis import parse_guard
from rag.analysis.chunking import Block
from rag.analysis.facts import EXPRESSION_RECEIVER, RETURNED, SELF_RECEIVER, FileFacts, Mount, NamedImport, Reference
from rag.analysis.languages.components import component_script
from rag.analysis.records import Entrypoint, Symbol

FOLDER = Path(__file__).resolve().parent

# The kinds of the tags convention, as the catalog's kinds.
_KINDS = {
    "class": "class", "interface": "class", "module": "class", "type": "class", "struct": "class",
    "enum": "class", "trait": "class", "implementation": "class",
    "function": "function", "macro": "function",
    "method": "method",
    "constant": "const", "field": "const",
}
# How a package's parts are separated where they are not dots (Rust's ``::``, PHP's ``\``).
NAMESPACE_SEPARATOR = re.compile(r"::|\\")
# A definition's signature is its first line, cut here.
SIGNATURE_CHARS = 200
# Files larger than this are windowed instead of parsed (generated or vendored code).
MAX_PARSED_BYTES = 2 * 1024 * 1024
# Files whose syntax tree is deeper than this are windowed too: tree-sitter finds a node's parent (and
# its previous sibling) by walking down from the root, so each such step costs the node's depth. The
# deepest of 7,716 files of 21 projects in 9 languages is 75 levels (p99 36).
MAX_NESTING = 256
# A file's parse gets this long, then the file is read as lines: a grammar's scanner may read the rest
# of the file again from every place it starts (Rust's raw strings: 600 KB of ``r#"`` took minutes).
# A real file of the size cap parses in well under a second.
PARSE_SECONDS = 5.0
# tree-sitter's query cursor, at each node, looks along the node's later siblings for a named one
# (``ts_tree_cursor_current_status``): a run of k unnamed tokens side by side costs about k² steps of
# every query. Error recovery leaves such runs (300 KB of unclosed TypeScript ``${`` held one file's
# queries 98 s), so a file whose runs' k² add up past this is read as lines: about 10 ms of each query.
# The most of 4,012 files of 10 projects in 7 languages is 19,679.
MAX_TOKEN_RUNS = 1 << 24
# Only nodes with more children than this are looked at for runs: below it a node's runs cost no more
# than its own parse did.
_WIDE = 64


# All the parses of one analysis (``analyze_repository``) get this long, and this much more per million
# characters of the files it reads; then its remaining files are read as lines. A file's own limits bound one file, not the
# 50,000 files an upload may hold (20 KB of Kotlin's ``/*`` repeated takes 4 s to parse, twice). Real code
# parses at 0.05-0.15 s per MB by language (one file at most 0.5 s per MB) over rails' 4,885 files and
# 4,012 files of 10 other projects.
PARSE_BUDGET_SECONDS = 30.0
PARSE_BUDGET_SECONDS_PER_MILLION = 1.0


class ParseBudget:
    """The parse time left to one analysis."""

    def __init__(self, characters: int) -> None:
        self.left = PARSE_BUDGET_SECONDS + PARSE_BUDGET_SECONDS_PER_MILLION * characters / 1e6


_budget: ContextVar[ParseBudget | None] = ContextVar("parse_budget", default=None)


@contextmanager
def parse_budget(characters: int) -> Iterator[ParseBudget]:
    """Parses within the block share one ``ParseBudget``, for files of that many characters in all."""
    budget = ParseBudget(characters)
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


class NotParsed(ValueError):
    """A file read as lines instead of parsed: its parse ran past ``PARSE_SECONDS`` or took more memory
    than any real file's (``parse_guard``), or its tree is one whose queries could not end in time
    (``_unqueryable``)."""


def _parsed(spec: LanguageSpec, data: bytes) -> tree_sitter.Tree:
    """``data``'s syntax tree, or ``NotParsed`` when its parse would run past ``PARSE_SECONDS`` (or the
    analysis's ``ParseBudget``) or take more memory than any real file's (tried first in the guard's
    process: ``rag.analysis.parse_guard``)."""
    budget = _budget.get()
    if budget is not None and budget.left <= 0:
        raise NotParsed("the analysis's parse time ran out")
    seconds = PARSE_SECONDS if budget is None else min(PARSE_SECONDS, budget.left)
    reason, took = parse_guard.refusal(spec.grammar, spec.function, data, seconds)
    started = time.monotonic()
    tree = None if reason is not None else _grammar(spec)[0].parse(data)
    if budget is not None:
        budget.left -= took + time.monotonic() - started
    if tree is None:
        raise NotParsed(reason)
    return tree


def _source(spec: LanguageSpec, code: str) -> bytes:
    """The bytes the grammar reads of ``code``: the code, its ``macros`` blanked byte for byte, so every
    node keeps its place in the code as written."""
    data = code.encode("utf-8", "surrogatepass")
    if spec.macros is None:
        return data
    return spec.macros.sub(_blanked, data)


def _blanked(macro: re.Match[bytes]) -> bytes:
    """A match of ``macros`` as spaces: all of it, or its group ``blank`` when it has one (the macro after ``class``)."""
    whole = macro.group(0)
    if "blank" not in macro.re.groupindex or macro.start("blank") < 0:
        return b" " * len(whole)
    start, end = macro.start("blank") - macro.start(), macro.end("blank") - macro.start()
    return whole[:start] + b" " * (end - start) + whole[end:]


def parse_ahead(spec: LanguageSpec, code: str) -> None:
    """Ask the parse guard for this code's parse before ``extract_tree_sitter`` wants it."""
    data = _source(spec, code)
    if len(data) <= MAX_PARSED_BYTES:
        parse_guard.ahead(spec.grammar, spec.function, data)


# Matches a query follows at once. A pattern of several siblings that may come in any order makes
# tree-sitter follow every way to pick them, which grows as a power of a literal's length: one such
# pattern ran for minutes on a vendored file's table of thousands of entries. Past the limit the
# oldest unfinished match is dropped, so a file's queries end in time however it is written; the
# code of the evaluation sets' repositories never comes near it.
QUERY_MATCH_LIMIT = 256


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    suffixes: tuple[str, ...]
    grammar: str
    function: str
    tags_from: tuple[str, ...]
    unit: str = "file"
    test_paths: tuple[str, ...] = ()
    # Folders whose queries this language also reads (TypeScript reads JavaScript's).
    extends: tuple[str, ...] = ()
    # Routes named by a file's path (Next.js): (framework, compiled pattern whose group 1 is the route, the
    # methods the file serves when its code does not say: none for every method, the name of a folder's
    # own page: ``index``, Razor Pages' ``Index``, and how the path is written: "" as folders, ``remix`` as
    # Remix's flat routes: ``posts.$slug`` is ``/posts/:slug``).
    file_routes: tuple[tuple[str, re.Pattern[str], tuple[str, ...], str, str], ...] = ()
    # Frameworks whose routes are declared only in files whose path matches (Rails: ``config/routes.rb``;
    # elsewhere ``get '/cart'`` is a test's request).
    framework_files: tuple[tuple[str, re.Pattern[str]], ...] = ()
    # (framework, files, prefix): the framework serves the routes of the files whose path matches under the
    # prefix (Laravel: ``routes/api.php`` under ``/api``).
    file_prefixes: tuple[tuple[str, re.Pattern[str], str], ...] = ()
    # Files the build tool runs (Cargo's ``build.rs``): neither programs nor commands of the project.
    build_scripts: re.Pattern[str] | None = None
    # What joins an import's path when braces group several imports under one (Rust's ``::``:
    # ``use a::{b, c::D}`` is ``a::b`` and ``a::c::D``; PHP's ``\``, whose groups the tags query
    # captures member by member after an ``@import_prefix``); empty when the language has no such groups.
    import_separator: str = ""
    # Whether a bare name the file imports by its last part is that import (PHP's ``use Exception;`` then
    # ``extends Exception``: the library's, not a repository class of that name elsewhere).
    imports_bind_names: bool = False
    # How imports find their files (rag/analysis/resolution.py): ``cargo`` (crates and their module
    # trees), ``go`` (module paths of go.mod files), ``es`` (relative specifiers, and bare ones by a
    # workspace's package names and a tsconfig's paths); empty for the generic rules.
    module_system: str = ""
    # The names a language's definitions share with other languages' (``jvm``: Java's and Kotlin's classes
    # are one namespace, each calls and imports the other's; ``c``: C++ calls C's functions and uses its
    # structs, C's headers are included by C++ files); empty: its own.
    names: str = ""
    # Whether the language's functions at the top of a file are called by name from the other languages of
    # its name space (C's from C++); Kotlin's are not: Java calls ``fun helper()`` as ``HelperKt.helper``.
    shared_functions: bool = True
    # Suffixes of another language's files this one takes when their text matches ``claim_pattern``
    # (C++ takes a ``.h`` header that has templates, classes or ``std::``).
    claims: tuple[str, ...] = ()
    claim_pattern: re.Pattern[str] | None = None
    # Macros the grammar cannot read, which would take the declarations after them with them (Qt's
    # ``Q_OBJECT`` on a line of its own in a class, an export macro before a class's name: ``class FMT_API
    # format_error``): the grammar reads them as blank (``_source``).
    macros: re.Pattern[bytes] | None = None
    # How a qualified name is written in the language (``written_name``): what joins its names, what
    # joins a method to its type (Java's ``Class#method``), and which names it is made of: ``qualified``
    # (the index's whole name: a package's), ``namespaces`` (those inside the file's module: C++'s and
    # Ruby's namespaces), ``crate`` (the crate and its module tree, Rust's).
    written_separator: str = "."
    written_member: str = ""
    written_scope: str = "qualified"
    # How a method refers to its own object (``this``; PHP's ``$this``, ``self``, ``static`` and
    # ``parent``; Rust's ``self`` and ``Self``): a call on one of these is a call of the enclosing
    # class's member. A Go method's receiver is whatever its declaration names it.
    self_names: frozenset[str] = frozenset({"this", "super"})
    # The name of the type a function returns, read from its signature (group 1; Go's
    # ``func NewFilter(...) *Filter``): a name bound to a call's result (``types.scm``'s ``@returned``)
    # has that type.
    returns: re.Pattern[str] | None = None
    # The type an extension function extends, read from its signature (group 1: Kotlin's ``fun Route.get(``,
    # C#'s ``Add(this IServiceCollection services``): a call on a value of that type, or with no receiver
    # inside the extension, may be one of its members or extensions.
    extension_receiver: re.Pattern[str] | None = None
    # Whether a call with no receiver may be a method of the enclosing object (Java, Kotlin, C#, C++, Ruby
    # call their own class's methods bare; Go, Rust, JavaScript, PHP and C never do).
    implicit_self: bool = False
    # Whether a bare type name is looked up in the namespaces around the reference, innermost first, as
    # Ruby finds a constant: ``File`` in ``module Jekyll`` is ``Jekyll::File`` or Ruby's own ``File``, never
    # ``Jekyll::LiquidRenderer::File``.
    lexical_types: bool = False
    # Whether a class or module defined in several files is one (Ruby reopens them): a name that reaches
    # only its definitions reaches the one in the file named after it (``site.rb`` for ``Site``), else the
    # longest.
    reopened_types: bool = False
    # Names the language itself provides to a call with no receiver (Go's ``len``, Rust's ``println!``,
    # Ruby's ``puts``): never a repository's symbol found only by its name elsewhere.
    builtins: frozenset[str] = frozenset()
    # Methods of the standard library's common types (Rust's ``unwrap``, Java's ``toString``): a call of
    # one on a value of unknown type is not taken for the repository's only method of that name.
    library_methods: frozenset[str] = frozenset()
    # Where a call with no receiver finds its callee: ``package`` when only in the caller's own package
    # (Go: a bare name is the package's, or the language's), ``imports`` when in its package or what its
    # file imports (Kotlin's top-level functions); empty when anywhere a name is found.
    bare_calls: str = ""
    # How the language names the interface a class implements (C#'s ``I``: ``ServiceCollection`` is an
    # ``IServiceCollection``): a library's class, whose bases are not known, has that interface's extensions.
    interface_prefix: str = ""
    # Names a path may write that the index's names leave out (Kotlin's ``Companion``: a companion object's
    # members are its class's, so ``import a.Cart.Companion.empty`` is ``a.Cart.empty``).
    unnamed_scopes: frozenset[str] = frozenset()
    # Tokens a route's path names its handler by (ASP.NET's ``[controller]`` and ``[action]``): (token, whose
    # name: ``class`` or ``handler``, a suffix the name drops).
    route_tokens: tuple[tuple[str, str, str], ...] = ()
    # The route of a controller's action that names no route of its own, in a class that names none either
    # (``@action``): ASP.NET MVC's conventional ``[controller]/[action]``.
    conventional_route: str = ""
    # Attributes written above a definition that belong to it (``attributes``: Elixir's ``@doc``, ``@spec`` and
    # ``@impl``, the node type ``unary_operator``), and those whose text is its documentation (``@doc "..."``).
    attribute_node: str = ""
    doc_attributes: frozenset[str] = frozenset()
    # Attributes that document the definition they open (Elixir's ``@moduledoc`` first in a ``defmodule``).
    body_doc_attributes: frozenset[str] = frozenset()
    # Grammar packages whose ``queries/locals.scm`` this language also reads (after the folder's own).
    locals_from: tuple[str, ...] = ()
    # What names a program by its main function's file (``_program``): ``folder`` (Go's ``cmd/server/``, a
    # crate's ``src/main.rs``), or ``file`` where a folder holds many programs of one file each (C and C++:
    # ``tools/jsonstats.cpp`` is ``jsonstats``; a ``main.c`` is still named by its folder).
    programs: str = "folder"
    # Names of files that stand for their folder (Rust's ``a/mod.rs``, JavaScript's ``a/index.js``): the
    # folder is what such a file is called.
    folder_files: frozenset[str] = frozenset()
    # Nodes that declare the function defined right after them (TypeScript's overload signatures,
    # ``function_signature``): one symbol with it (``_fold_declarations``). Not where a name may
    # stand for several functions (Java's overloads each have a body of their own).
    overload_declarations: frozenset[str] = frozenset()
    # Whether the grammar reads JSX (JavaScript's, TSX's): the folders' ``*.jsx.scm`` queries are read with their
    # ``*.scm`` ones (TypeScript's grammar has no JSX nodes, so a query naming them would not compile for it).
    jsx: bool = False
    folder: Path = field(default=FOLDER)

    @classmethod
    def load(cls, folder: Path) -> LanguageSpec:
        table: dict[str, Any] = tomllib.loads((folder / "language.toml").read_text())
        written = table.get("written_names", {})
        extends = tuple(table.get("extends", ()))
        # What the folders it extends say holds for it too (TypeScript's routes, globals and built-in methods).
        sources = [table, *(tomllib.loads((folder.parent / other / "language.toml").read_text()) for other in extends)]
        file_routes = [
            (
                rule["framework"], re.compile(rule["pattern"]), tuple(rule.get("methods", ())), rule.get("index", "index"),
                rule.get("style", ""),
            )
            for source in sources for rule in source.get("file_routes", ())
        ]
        return cls(
            name=folder.name,
            suffixes=tuple(table["suffixes"]),
            grammar=table["grammar"],
            function=table.get("function", "language"),
            tags_from=tuple(table.get("tags_from", ())),
            unit=table.get("unit", "file"),
            test_paths=tuple(table.get("test_paths", ())),
            extends=extends,
            file_routes=tuple(file_routes),
            framework_files=tuple((name, re.compile(pattern)) for name, pattern in table.get("framework_files", {}).items()),
            file_prefixes=tuple(
                (rule["framework"], re.compile(rule["pattern"]), rule["prefix"]) for rule in table.get("file_prefixes", ())
            ),
            build_scripts=re.compile("|".join(table["build_scripts"])) if table.get("build_scripts") else None,
            import_separator=table.get("import_separator", ""),
            imports_bind_names=table.get("imports_bind_names", False),
            module_system=table.get("module_system", ""),
            names=table.get("names", ""),
            shared_functions=table.get("shared_functions", True),
            claims=tuple(table.get("claims", ())),
            claim_pattern=re.compile("|".join(table["claim_patterns"]), re.MULTILINE) if table.get("claim_patterns") else None,
            macros=re.compile("|".join(table["macros"]).encode(), re.MULTILINE) if table.get("macros") else None,
            written_separator=written.get("separator", "."),
            written_member=written.get("member", ""),
            written_scope=written.get("scope", "qualified"),
            self_names=frozenset(table.get("self_names", ("this", "super"))),
            returns=re.compile(table["returns"]) if table.get("returns") else None,
            extension_receiver=re.compile(table["extension_receiver"]) if table.get("extension_receiver") else None,
            implicit_self=table.get("implicit_self", False),
            lexical_types=table.get("lexical_types", False),
            reopened_types=table.get("reopened_types", False),
            builtins=frozenset(name for source in sources for name in source.get("builtins", ())),
            library_methods=frozenset(name for source in sources for name in source.get("library_methods", ())),
            bare_calls=table.get("bare_calls", ""),
            locals_from=tuple(table.get("locals_from", ())),
            programs=table.get("programs", "folder"),
            folder_files=frozenset(name for source in sources for name in source.get("folder_files", ())),
            overload_declarations=frozenset(name for source in sources for name in source.get("overload_declarations", ())),
            jsx=table.get("jsx", False),
            unnamed_scopes=frozenset(table.get("unnamed_scopes", ())),
            interface_prefix=table.get("interface_prefix", ""),
            route_tokens=tuple(
                (token, rule["of"], rule.get("strip", "")) for token, rule in table.get("route_tokens", {}).items()
            ),
            conventional_route=table.get("conventional_route", ""),
            attribute_node=table.get("attributes", {}).get("node", ""),
            doc_attributes=frozenset(table.get("attributes", {}).get("docs", ())),
            body_doc_attributes=frozenset(table.get("attributes", {}).get("body_docs", ())),
            folder=folder,
        )

    def own_queries(self, name: str) -> list[str]:
        """The ``name`` queries of this folder and of the folders it extends (and their JSX ones: ``jsx``), and this
        folder's ``*.own.scm`` ones, which the languages extending it do not read (JavaScript's nodes that
        TypeScript's grammar names otherwise: ``field_definition``)."""
        folders = [self.folder, *(self.folder.parent / other for other in self.extends)]
        names = [name, name.removesuffix(".scm") + ".jsx.scm"] if self.jsx else [name]
        found = [(folder / each).read_text(encoding="utf-8") for folder in folders for each in names if (folder / each).exists()]
        own = self.folder / (name.removesuffix(".scm") + ".own.scm")
        return found + [own.read_text(encoding="utf-8")] if own.exists() else found

    @property
    def tags_source(self) -> str:
        """The tags query: our ``tags.scm`` first (its captures of a span win), then the named
        grammar packages' own."""
        parts = self.own_queries("tags.scm")
        parts += [
            importlib.resources.files(package).joinpath("queries", "tags.scm").read_text(encoding="utf-8")
            for package in self.tags_from
        ]
        return "\n".join(parts)

    @property
    def locals_source(self) -> str:
        """The locals query (``@local.scope``, ``@local.definition``): the folder's ``locals.scm``, then the
        named grammar packages' own; empty when the language has none."""
        parts = self.own_queries("locals.scm")
        parts += [
            importlib.resources.files(package).joinpath("queries", "locals.scm").read_text(encoding="utf-8")
            for package in self.locals_from
        ]
        return "\n".join(parts)


@cache
def specs() -> dict[str, LanguageSpec]:
    """Every language folder, by suffix."""
    found: dict[str, LanguageSpec] = {}
    for folder in sorted(FOLDER.iterdir()):
        if (folder / "language.toml").exists():
            spec = LanguageSpec.load(folder)
            for suffix in spec.suffixes:
                found[suffix] = spec
    return found


def spec_for(path: str, text: str | None = None) -> LanguageSpec | None:
    """The language of a file by its suffix; with its ``text``, another language that claims the
    suffix and recognises the text wins (a C++ header named ``.h``)."""
    suffix = posixpath.splitext(path)[1].lower()
    if text is not None:
        for claimant in _claimants().get(suffix, ()):
            if claimant.claim_pattern is not None and claimant.claim_pattern.search(text):
                return claimant
    return specs().get(suffix)


@cache
def _claimants() -> dict[str, tuple[LanguageSpec, ...]]:
    found: dict[str, list[LanguageSpec]] = {}
    for spec in dict.fromkeys(specs().values()):
        for suffix in spec.claims:
            found.setdefault(suffix, []).append(spec)
    return {suffix: tuple(claimants) for suffix, claimants in found.items()}


def spec_named(language: str) -> LanguageSpec | None:
    return next((spec for spec in specs().values() if spec.name == language), None)


@cache
def shares_functions(language: str) -> bool:
    """Whether the language's top-level functions are called by name from the other languages of its name
    space (``LanguageSpec.shared_functions``)."""
    spec = spec_named(language)
    return spec is None or spec.shared_functions


@cache
def name_space(language: str) -> str:
    """Where a language's names are looked up by name: its own, or the one it shares (``LanguageSpec.names``)."""
    spec = spec_named(language)
    return spec.names if spec is not None and spec.names else language


def code_of(path: str, text: str) -> tuple[LanguageSpec, str] | None:
    """The language a file is read with and the text read: the file itself, or the scripts of a Vue or
    Svelte component in the file's own lines (``components``); None when no grammar reads it."""
    text = _LONE_CR.sub("\n", _LONE_SURROGATE.sub("\ufffd", text))
    spec = spec_for(path, text)
    if spec is not None:
        return spec, text
    component = component_script(path, text)
    if component is not None and (spec := spec_named(component[0])) is not None:
        return spec, component[1]
    return None


# A code point no UTF-8 text holds (what reading bytes with ``surrogateescape`` leaves): tree-sitter's text
# predicates fail to decode it. It becomes U+FFFD, one character and three bytes in UTF-8 as it was, so
# every offset stays where it was.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# A line break of classic Mac OS: the file's lines (``chunking.split_lines``) end there, tree-sitter's rows
# only at a newline. It becomes one, so a definition's lines are the lines its chunk holds.
_LONE_CR = re.compile("\r(?!\n)")


@cache
def _language(spec: LanguageSpec) -> tree_sitter.Language:
    return tree_sitter.Language(getattr(importlib.import_module(spec.grammar), spec.function)())


@cache
def _grammar(spec: LanguageSpec) -> tuple[tree_sitter.Parser, tree_sitter.Query]:
    """The parser and the compiled tags query of a language, built once per process."""
    language = _language(spec)
    return tree_sitter.Parser(language), tree_sitter.Query(language, spec.tags_source)


@cache
def _entrypoints_query(spec: LanguageSpec) -> tree_sitter.Query | None:
    """The folder's ``entrypoints.scm``: ``@main`` (with its ``@name``) on a program's main function,
    ``@route.<framework>`` on a route registration with its ``@path`` and ``@method``."""
    sources = spec.own_queries("entrypoints.scm")
    return tree_sitter.Query(_language(spec), "\n".join(sources)) if sources else None


@cache
def _types_query(spec: LanguageSpec) -> tree_sitter.Query | None:
    """The folder's ``types.scm``: a name (``@variable``) and the type it is declared with (``@type``):
    fields, parameters, local variables."""
    sources = spec.own_queries("types.scm")
    return tree_sitter.Query(_language(spec), "\n".join(sources)) if sources else None


@cache
def test_path_patterns() -> tuple[str, ...]:
    """Every ecosystem's test-file patterns (``test_paths`` of each folder), sorted: what ``is_test_file`` matches."""
    return tuple(sorted({pattern for spec in specs().values() for pattern in spec.test_paths}))


@cache
def _test_spec() -> pathspec.PathSpec:
    return pathspec.PathSpec.from_lines("gitignore", test_path_patterns())


def named_by_folder(path: str) -> bool:
    """Whether a file stands for its folder (``printer/src/hyperlink/mod.rs``, ``plugin/utc/index.js``, and
    Python's ``__init__.py``, whose analysis is not a folder here): what it is called is its folder's name."""
    folder, _, name = path.rpartition("/")
    if not folder:
        return False
    if name == "__init__.py":
        return True
    spec = spec_for(path)
    return spec is not None and name.split(".", 1)[0] in spec.folder_files


def is_test_file(path: str) -> bool:
    """Whether a path is a test by the conventions of its ecosystem (``*_test.go``, ``src/test/``, ``*.spec.ts`` ...)."""
    return _test_spec().match_file(path)


def parses(path: str, text: str) -> str | None:
    """None when ``text`` parses cleanly with the grammar of ``path``'s language (a component's scripts
    with theirs), else where it does not."""
    read = code_of(path, text)
    if read is None:
        return None
    spec, code = read
    try:
        root = _parsed(spec, _source(spec, code)).root_node
    except NotParsed as error:
        return f"{spec.name} does not parse ({error})"
    if not root.has_error:
        return None
    bad = _first_error(root)
    line = bad.start_point[0] + 1 if bad is not None else 1
    return f"{spec.name} does not parse (near line {line})"


def _first_error(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first error or missing node under ``node``, down the first child that has one at each level
    (a loop: an edit may nest deeper than Python's recursion goes)."""
    while not (node.is_error or node.is_missing):
        child = next((child for child in node.children if child.has_error or child.is_missing), None)
        if child is None:
            return None
        node = child
    return node


def unit_name(path: str, spec: LanguageSpec) -> str:
    """The dotted name a file's symbols live under: its path, or its folder for package-per-folder languages."""
    stem = posixpath.splitext(path)[0]
    if spec.unit == "directory":
        stem = posixpath.dirname(path) or posixpath.basename(stem)
    return stem.replace("/", ".").replace("-", "_") or "_"


def _matches(query: tree_sitter.Query, root: tree_sitter.Node) -> list[tuple[int, dict[str, list[tree_sitter.Node]]]]:
    """The query's matches under ``root``, at most ``QUERY_MATCH_LIMIT`` followed at once."""
    return tree_sitter.QueryCursor(query, match_limit=QUERY_MATCH_LIMIT).matches(root)


def written_name(qname: str, module: str, path: str, kind: str) -> str:
    """A symbol's qualified name as its language writes it: ``walk::WalkBuilder::new`` for the index's
    ``crates.walk.src.lib.WalkBuilder.new``, ``com.shop.JsonParser#nextToken``, ``Shop::Base#route``,
    ``simdjson::internal::detect``; the index's own name where the language has no other form."""
    spec = spec_for(path)
    if spec is None:
        return qname
    names = qname.split(".")
    prefix = module.split(".") if module and qname.startswith(module + ".") else []
    if spec.written_scope == "namespaces":
        names = names[len(prefix):]
    elif spec.written_scope == "crate" and prefix:
        names = [*_crate_modules(prefix), *names[len(prefix):]]
    if kind == "method" and spec.written_member and len(names) > 1:
        return spec.written_separator.join(names[:-1]) + spec.written_member + names[-1]
    return spec.written_separator.join(names)


def _crate_modules(folders: list[str]) -> list[str]:
    """A Rust file's module path from its folders: ``crates.walk.src.lib`` is ``walk``, ``src.walk.builder``
    is ``crate::walk::builder`` (a crate's folder names it; at the top it is ``crate``). Files outside a
    ``src`` folder (tests, benches) keep their folders."""
    if "src" not in folders:
        return folders
    at = len(folders) - 1 - folders[::-1].index("src")
    modules = [folders[at - 1] if at else "crate", *folders[at + 1:]]
    # As the crates' module trees are read for imports (``ImportTargets``): ``src/lib.rs`` and
    # ``src/main.rs`` are the crate, ``a/mod.rs`` is module ``a``.
    if modules[-1] == "mod" or (len(modules) == 2 and modules[-1] in ("lib", "main")):
        modules.pop()
    return modules


def _unqueryable(root: tree_sitter.Node) -> str | None:
    """Why the tree's queries could not end in time, if they could not: a node more than ``MAX_NESTING``
    levels below ``root``, or runs of unnamed tokens past ``MAX_TOKEN_RUNS``. One walk of a cursor,
    which keeps its path: no step up costs the depth."""
    cursor = root.walk()
    # How many children of the cursor's node's parent the walk has passed; above, those of its ancestors'.
    passed, above = 1, []
    runs = 0
    while True:
        if cursor.goto_first_child():
            if cursor.depth > MAX_NESTING:
                return f"nested more than {MAX_NESTING} levels deep"
            above.append(passed)
            passed = 1
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return None
            passed = above.pop()
        passed += 1
        if passed == _WIDE + 1:
            runs += _token_runs(cursor.node.parent)
            if runs > MAX_TOKEN_RUNS:
                return "its runs of unnamed tokens are too long to query"


def _token_runs(node: tree_sitter.Node) -> int:
    """The sum of k² over the runs of k unnamed tokens among ``node``'s children."""
    total = run = 0
    for child in node.children:
        if child.is_named:
            total += run * run
            run = 0
        else:
            run += 1
    return total + run * run


@dataclass
class _Definition:
    node: tree_sitter.Node
    name: str
    kind: str
    receiver: str = ""
    # A naming scope only (no symbol): a Rust impl block (kind ``class``), a C++ namespace (``namespace``).
    container: bool = False
    # Named at the file's top level whatever encloses it (``@global``: a preprocessor macro).
    is_global: bool = False
    children: list[_Definition] = field(default_factory=list)
    qname: str = ""
    # Its doc comment and attributes (``_preamble``), read once for its doc and for its chunk.
    preamble: list[tree_sitter.Node] = field(default_factory=list)
    # The row its text starts on: its preamble's, else its ``_outer`` node's (where its chunk starts).
    first_row: int = 0
    # The statement that declares it (``_declaring_statement``): itself, but for a definition that is one
    # token of a statement.
    statement: tree_sitter.Node | None = None
    # Declarations of it without a body right above it (``_fold_declarations``), first first.
    declarations: list[_Definition] = field(default_factory=list)


_V = TypeVar("_V")


class _Spans(dict[tuple[int, int], _V]):
    """Values by the span of a tree node, and the spans around a node (``chain``, ``around``).

    Those are found among the spans, not by walking up the tree: tree-sitter finds a node's parent by
    walking down from the root, so each step up costs the node's depth, and the references of a call
    chained or nested thousands of times (a file of 14 KB) took minutes. Spans of tree nodes nest or
    are apart; the index of them is built at the first question after a change.
    """

    _index: tuple[list[int], list[tuple[int, int]], list[int]] | None = None

    def __setitem__(self, key: tuple[int, int], value: _V) -> None:
        self._index = None
        super().__setitem__(key, value)

    def __delitem__(self, key: tuple[int, int]) -> None:
        self._index = None
        super().__delitem__(key)

    def setdefault(self, key: tuple[int, int], default: _V) -> _V:  # type: ignore[override]
        self._index = None
        return super().setdefault(key, default)

    def chain(self, node: tree_sitter.Node) -> list[tuple[int, int]]:
        """The spans around ``node``, outermost first: the spans of its ancestors (its own span only
        when the node it is wrapped in alone has it too, as a Go call and its statement)."""
        if self._index is None:
            spans = sorted(self, key=lambda span: (span[0], -span[1]))
            # Each span's nearest span around it (-1: none), by a stack of the spans still open.
            parents: list[int] = []
            open_spans: list[int] = []
            for number, (_, end) in enumerate(spans):
                while open_spans and spans[open_spans[-1]][1] < end:
                    open_spans.pop()
                parents.append(open_spans[-1] if open_spans else -1)
                open_spans.append(number)
            self._index = ([start for start, _ in spans], spans, parents)
        starts, spans, parents = self._index
        own = (node.start_byte, node.end_byte)
        # The last span to start at or before the node is inside the innermost one around it, or is it.
        number = bisect.bisect_right(starts, own[0]) - 1
        while number >= 0 and spans[number][1] < own[1]:
            number = parents[number]
        if number >= 0 and spans[number] == own:
            parent = node.parent
            if parent is None or (parent.start_byte, parent.end_byte) != own:
                number = parents[number]
        found = []
        while number >= 0:
            found.append(spans[number])
            number = parents[number]
        return found[::-1]

    def around(self, node: tree_sitter.Node) -> _V | None:
        """The value of the innermost span around ``node`` (None outside every one)."""
        found = self.chain(node)
        return self[found[-1]] if found else None


# A file's definitions by their node's span.
_Definitions = _Spans[_Definition]


def _text(node: tree_sitter.Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


# Siblings above a definition that belong to it: its comments, and Rust's attributes (``#[derive]``)
# and TypeScript's decorators of class members, which the grammars put beside it rather than in it.
_PREAMBLE_TYPES = ("attribute_item", "decorator")
# Nodes that wrap a definition after a header of their own: C++'s ``template <typename T>``.
_WRAPPER_TYPES = ("template_declaration",)


def _outer(node: tree_sitter.Node) -> tree_sitter.Node:
    """The node a definition's text starts with: the definition, or a node wrapping it that ends with it
    and that it starts (``export function``, an annotated declaration) or that has a header of its own
    (``_WRAPPER_TYPES``); not the body of a class whose first member it is."""
    while (
        node.parent is not None and node.parent.parent is not None
        and node.parent.end_point[0] == node.end_point[0]
        and (node.prev_named_sibling is None or node.parent.type in _WRAPPER_TYPES)
    ):
        node = node.parent
    return node


def _preamble(node: tree_sitter.Node, attribute_node: str = "") -> list[tree_sitter.Node]:
    """The comments and attributes right above a definition's ``_outer`` node, top first: no blank
    line between them and it, none ending a line of code (that comment is the code's). ``attribute_node``:
    the language's own attributes (``LanguageSpec.attribute_node``)."""
    found: list[tree_sitter.Node] = []
    while node.prev_sibling is None and node.parent is not None and node.parent.start_byte == node.start_byte:
        # The first statement of a body that starts with it (Ruby's ``body_statement``): the comment
        # above is the body's sibling.
        node = node.parent
    previous = node.prev_sibling
    below = node.start_point[0]
    while (
        previous is not None
        and ("comment" in previous.type or previous.type in _PREAMBLE_TYPES or previous.type == attribute_node)
        and _last_row(previous) >= below - 1
    ):
        before = previous.prev_sibling
        if before is not None and _last_row(before) >= previous.start_point[0]:
            break
        found.insert(0, previous)
        below = previous.start_point[0]
        previous = before
    return found


def _attribute_doc(attribute: tree_sitter.Node, doc_attributes: frozenset[str]) -> str:
    """The string an attribute of one of those names holds (its first string's content); "" for another."""
    named = next((node for node in _walk(attribute) if node.type == "identifier"), None)
    if named is None or _text(named) not in doc_attributes:
        return ""
    content = next((node for node in _walk(attribute) if node.type == "quoted_content"), None)
    return _text(content) if content is not None else ""


def _body_doc(node: tree_sitter.Node, spec: LanguageSpec) -> str:
    """The documentation a definition opens its body with (``body_doc_attributes``): its first attribute's,
    when that is one of them."""
    if not spec.body_doc_attributes:
        return ""
    # Not into a definition inside it (a nested ``defmodule``: a node of the same type).
    first = next((child for child in _walk(node, stop=node.type) if child.type == spec.attribute_node), None)
    text = _attribute_doc(first, spec.body_doc_attributes) if first is not None else ""
    return "\n".join(line.strip() for line in text.strip().splitlines())


def _walk(node: tree_sitter.Node, stop: str = "") -> Iterator[tree_sitter.Node]:
    """A node and its named descendants, in order (depth first); not below a descendant of type ``stop``."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if current is node or current.type != stop:
            stack.extend(reversed(current.named_children))


def _declaring_statement(node: tree_sitter.Node, around: tree_sitter.Node) -> tree_sitter.Node:
    """The definition, or for a definition that is one token of a statement (``:name`` of Ruby's
    ``attr_reader :name, :email``) that statement: its ancestor in the body of ``around``, the
    definition (or file) it is in."""
    if node.child_count:
        return node
    while node.parent is not None and node.parent.parent is not None and around not in (node.parent, node.parent.parent):
        node = node.parent
    return node


def _last_row(node: tree_sitter.Node) -> int:
    """The last row a node has text on (a Rust line comment ends at the start of the next row; so does a Scala or
    Swift definition that runs to the end of the file, and a file's root)."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


# The markup of doc comments: C#'s XML documentation (``<summary>``, ``<param name="x">``) and the
# HTML of Javadoc (``<p>``, ``<code>``). Only these tags, in lower case, so ``Vec<String>`` or ``List<Item>`` stay.
_DOC_REFERENCE = re.compile(r'<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="([^"]*)"\s*/>')
# What a C# parameter's or exception's documentation is about: ``<param name="request">`` reads ``request:``.
_DOC_NAMED = re.compile(r'<(?:param|typeparam|exception)\s+(?:name|cref)="([^"]*)"\s*>')
_DOC_TAG = re.compile(
    r"</?(?:summary|remarks|returns|param|typeparam|value|example|exception|para|c|code|see|seealso|list|item|"
    r"description|term|inheritdoc|include|p|br|b|i|em|strong|ul|ol|li|pre|tt|a|blockquote)\b[^<>]*>"
)


# A bundler's annotation in a comment (``/*#__PURE__*/``, ``/*@__NO_SIDE_EFFECTS__*/``): no documentation.
_ANNOTATION_COMMENT = re.compile(r"[#@]__\w+__")


def _doc(preamble: list[tree_sitter.Node], doc_attributes: frozenset[str] = frozenset()) -> str:
    """A definition's doc comment (JSDoc, Javadoc, GoDoc, rustdoc, Doxygen ...): its preamble's comments,
    markers and documentation markup stripped; or the text of its doc attribute (``doc_attributes``:
    Elixir's ``@doc "..."``, a heredoc's lines without their indentation; ``@doc false`` says nothing)."""
    cleaned = []
    for comment in preamble:
        if "comment" not in comment.type:
            if doc_attributes and (text := _attribute_doc(comment, doc_attributes)):
                cleaned.extend(line.strip() for line in text.strip().splitlines())
            continue
        text = _text(comment)
        dashed = text.startswith("--")  # Lua's ``--- Makes a cart.``, ``--[[ ... ]]``
        for line in text.splitlines():
            line = line.strip()
            if dashed:
                line = line.removeprefix("--[[").removesuffix("]]").lstrip("-")
            line = line.strip().removeprefix("/**").removeprefix("/*").removesuffix("*/").strip()
            line = _DOC_NAMED.sub(r"\1: ", _DOC_REFERENCE.sub(r"\1", line.lstrip("/!#*")))
            line = _DOC_TAG.sub("", line).strip()
            if line and not _ANNOTATION_COMMENT.fullmatch(line):
                cleaned.append(line)
    return "\n".join(cleaned)


_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_ALIAS = re.compile(r"\s+as\s+\w+")


def import_paths(written: str, separator: str) -> list[str]:
    """Each path an import names, its braces' groups spread out and aliases dropped:
    ``a::{self, b as c, d::{E, *}}`` is ``a``, ``a::b``, ``a::d::E`` and ``a::d::*``."""
    text = re.sub(r"\s+", "", _ALIAS.sub("", _COMMENTS.sub("", written)))
    return [path for path in _spread(text, separator) if path]


def _spread(text: str, separator: str) -> list[str]:
    opening = text.find("{")
    if opening < 0 or not text.endswith("}"):
        return [text]
    prefix, inner = text[:opening], text[opening + 1 : -1]
    members: list[str] = []
    depth = start = 0
    for index, character in enumerate(inner):
        depth += {"{": 1, "}": -1}.get(character, 0)
        if character == "," and depth == 0:
            members.append(inner[start:index])
            start = index + 1
    members.append(inner[start:])
    paths = []
    for member in filter(None, members):
        for path in _spread(member, separator):
            # ``a::{self}`` is ``a`` itself.
            paths.append(prefix.removesuffix(separator) if path == "self" else prefix + path)
    return paths


# Lines a declaration may start with before the one that names it: annotations and decorators
# (``@Override``), Rust and C# attributes (``#[inline]``, ``[HttpGet]``), C++ template headers.
_BEFORE_DECLARATION = re.compile(r"\s*(?:@|#\[|\[.*\]\s*$|template\s*<)")


def _signature(node: tree_sitter.Node) -> str:
    """The line that declares the definition, up to its body."""
    lines = _text(node).split("\n")
    first = next((line for line in lines if line.strip() and not _BEFORE_DECLARATION.match(line)), lines[0])
    return _before_body(first[:SIGNATURE_CHARS]).strip()


def _path_before(node: tree_sitter.Node) -> list[str]:
    """The names written before ``node`` in the same path: its earlier siblings in its parent's ``path`` field
    since the last comma (tree-sitter-scala writes ``import com.shop.Cart`` as three names side by side)."""
    parent = node.parent
    names: list[str] = []
    if parent is None:
        return names
    for index, child in enumerate(parent.children):
        if child.start_byte >= node.start_byte:
            break
        if child.is_named and parent.field_name_for_child(index) == "path":
            names.append(_text(child))
        elif child.type == ",":
            names = []
    return names


def _before_body(line: str) -> str:
    """The line up to its first ``{`` where the parentheses and brackets before it close as many as they open: the
    braces of a parameter list are the signature's (JavaScript's ``function save({ id, name }) {``, Dart's ``int add(Item item, {bool gift = false}) {``)."""
    brace = line.find("{")
    head = line if brace < 0 else line[:brace]
    if head.count("(") + head.count("[") == head.count(")") + head.count("]"):
        return head  # no bracket open at the first brace: the common case, without a pass over the characters
    depth = 0
    for index, char in enumerate(line):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "{" and depth == 0:
            return line[:index]
    return line


def extract_tree_sitter(
    path: str, text: str, spec: LanguageSpec
) -> tuple[list[Symbol], list[Block], FileFacts]:
    """Symbols, top-level blocks and facts of one file of a tree-sitter language."""
    unit = unit_name(path, spec)
    data = _source(spec, text)
    if len(data) > MAX_PARSED_BYTES:
        return [], [], FileFacts(module=unit)
    _, query = _grammar(spec)
    root = _parsed(spec, data).root_node
    if (reason := _unqueryable(root)) is not None:
        raise NotParsed(reason)
    # Definitions by their node's span; asked for the one around a node (``_Spans``) once all are found.
    found_definitions: dict[tuple[int, int], _Definition] = {}
    # Where definitions' names are: a query that takes every identifier for a reference (Ruby's)
    # must not make a definition call itself.
    defined_at: set[tuple[int, int]] = set()
    # (name node, name, edge kind, whether it is a call: only calls have receivers, the node the query
    # names as its receiver if any, whether the name is the whole reference: a bare identifier)
    calls: list[tuple[tree_sitter.Node, str, str, bool, tree_sitter.Node | None, bool]] = []
    imports: list[tuple[tree_sitter.Node, str, str]] = []
    named_imports: list[NamedImport] = []
    namespaces: set[tuple[int, int]] = set()
    # A pattern's ``(#set! strip "regex")`` removes what matches from its names (the colon of Ruby's
    # ``attr_reader :name``).
    strips = {
        pattern: re.compile(str(settings["strip"]))
        for pattern in range(query.pattern_count)
        if (settings := query.pattern_settings(pattern)).get("strip")
    }
    for pattern, captures in _matches(query, root):
        if "package" in captures:
            if spec.unit == "package":
                unit = NAMESPACE_SEPARATOR.sub(".", _text(captures["package"][0]))
            # The declaration the package is named in is no symbol of its own (PHP's tags call it a module).
            namespaces.update((node.start_byte, node.end_byte) for node in captures.get("namespace", ()))
            continue
        if "export.default" in captures or "export.local" in captures:
            # The module's own definition it exports as ``default`` or under a name of its export list:
            # passed on from itself (no source).
            node = (captures.get("export.default") or captures["export.local"])[0]
            member = _text(node)
            exported_as = "default" if "export.default" in captures else _text(captures["alias"][0]) if "alias" in captures else member
            named_imports.append(NamedImport(exported_as, member, "", node.start_point[0] + 1, reexport=True))
            continue
        if "import" in captures:
            node = captures["import"][0]
            # A string the grammar gives no node for its text inside the quotes (Dart's ``'src/cart.dart'``).
            written = _literal(node) if node.type == "string_literal" else _text(node)
            if "import.member" in captures or "import.reexport" in captures:
                # A name bound from the module, or passed on from it (ES modules: ``NamedImport``); the
                # statement's own match gives the module's import.
                reexport = "import.reexport" in captures
                member = _text(captures["import.reexport" if reexport else "import.member"][0])
                bound_as = _text(captures["alias"][0]) if "alias" in captures else member
                named_imports.append(NamedImport(bound_as, member, written, node.start_point[0] + 1, reexport))
                continue
            if "import.default" in captures:
                named_imports.append(NamedImport(_text(captures["import.default"][0]), "default", written, node.start_point[0] + 1))
                continue
            if "import_prefix" in captures:
                # A member of a group after the group's path (PHP's ``use App\Models\{User, Post};``), a path
                # written as names side by side (Scala's ``import com.shop.Cart``: ``com``, ``shop``, then ``Cart``).
                prefix = captures["import_prefix"][0]
                written = spec.import_separator.join((*_path_before(prefix), _text(prefix), written))
            # The name the file gives what it imports, when it renames it (PHP's ``use A\\B as C``).
            alias = _text(captures["alias"][0]) if "alias" in captures else ""
            for raw in import_paths(written, spec.import_separator) if spec.import_separator else (written,):
                imports.append((node, raw, alias))
            continue
        names = captures.get("name")
        if not names:
            continue
        name = _text(names[0])
        if pattern in strips:
            name = strips[pattern].sub("", name)
        receiver = _text(captures["receiver"][0]) if "receiver" in captures else ""
        container = next((capture for capture in captures if capture.partition(".")[0] == "container"), None)
        if container is not None and name:
            node = captures[container][0]
            kind = "namespace" if container == "container.namespace" else "class"
            # A nested namespace (C++17's ``namespace simdjson::dom``) is one name per namespace.
            name = ".".join(NAMESPACE_SEPARATOR.split(name))
            found_definitions.setdefault((node.start_byte, node.end_byte), _Definition(node, name, kind, container=True))
            continue
        for capture, nodes in captures.items():
            kind, _, role = capture.partition(".")
            if kind == "definition" and role in _KINDS and name:
                node = nodes[0]
                # The first capture of a span wins (a class is not also a type).
                found_definitions.setdefault(
                    (node.start_byte, node.end_byte), _Definition(node, name, _KINDS[role], receiver, is_global="global" in captures)
                )
                defined_at.add((names[0].start_byte, names[0].end_byte))
            elif kind == "reference" and role in ("call", "class", "implementation"):
                bare = (nodes[0].start_byte, nodes[0].end_byte) == (names[0].start_byte, names[0].end_byte)
                written_receiver = captures["receiver"][0] if "receiver" in captures else None
                edge_kind = "inherits" if role == "implementation" else "calls"
                calls.append((names[0], name, edge_kind, role == "call", written_receiver, bare))
    for span in namespaces:
        found_definitions.pop(span, None)
    definitions: _Definitions = _Spans(found_definitions)
    roots: list[_Definition] = []
    stack: list[_Definition] = []
    ordered: list[_Definition] = []
    for definition in sorted(definitions.values(), key=lambda d: (d.node.start_byte, -d.node.end_byte)):
        while stack and stack[-1].node.end_byte < definition.node.end_byte:
            stack.pop()
        # A property's value is no scope of names: the functions of an object it holds are its class's.
        parent = next((around for around in reversed(stack) if around.kind != "const"), None)
        if parent is not None and _is_value_of(definition, parent):
            # What is inside it belongs to the definition that names it.
            del definitions[(definition.node.start_byte, definition.node.end_byte)]
            continue
        ordered.append(definition)
        definition.statement = _declaring_statement(definition.node, parent.node if parent else root)
        outer = parent.qname if parent and not definition.is_global else unit
        definition.qname = f"{outer}.{definition.receiver}.{definition.name}" if definition.receiver else f"{outer}.{definition.name}"
        if parent is not None and definition.kind == "function" and parent.kind == "class" and not definition.is_global:
            definition.kind = "method"
        (parent.children if parent else roots).append(definition)
        stack.append(definition)
    folded = _fold_declarations([roots, *(definition.children for definition in ordered)], spec.overload_declarations)
    symbols: list[Symbol] = []
    for definition in ordered:
        if definition.container or id(definition) in folded:
            continue
        # A definition with declarations above it starts at the first: its doc, signature and chunk are there.
        first = definition.declarations[0] if definition.declarations else definition
        outer = _outer(first.statement or first.node)
        definition.preamble = _preamble(outer, spec.attribute_node)
        definition.first_row = (definition.preamble[0] if definition.preamble else outer).start_point[0]
        own = _preamble(_outer(definition.statement or definition.node), spec.attribute_node)
        own_doc = _doc(own, spec.doc_attributes) if definition.declarations else ""
        parent_qname = definition.qname.rsplit(".", 1)[0]
        symbols.append(
            Symbol(
                qname=definition.qname,
                name=definition.name,
                kind=definition.kind,  # type: ignore[arg-type]
                path=path,
                module=unit,
                start_line=first.node.start_point[0] + 1,
                end_line=_last_row(definition.node) + 1,
                signature=_signature(first.statement or first.node),
                docstring=_doc(definition.preamble, spec.doc_attributes) or own_doc or _body_doc(definition.node, spec),
                parent=parent_qname if parent_qname != unit else None,
            )
        )
    blocks = [block for definition in roots if _chunked(definition) for block in _blocks(definition, "")]
    declared = _declared_types(spec, root, definitions, unit)
    local_names = _local_names(spec, root)
    # A name a query also captures inside its call (Ruby's ``x.name``) is that call's, not a bare name.
    in_calls = {(node.start_byte, node.end_byte) for node, _, _, _, _, bare in calls if not bare}
    found: list[Reference] = []
    for node, name, kind, is_call, written_receiver, bare in calls:
        if name and (node.start_byte, node.end_byte) not in defined_at:
            if bare and ((node.start_byte, node.end_byte) in in_calls or _is_local(node, name, local_names)):
                continue  # a read of a parameter or local variable (Ruby's ``val``), not a call
            around = _enclosing(node, definitions)
            scope = around.qname if around is not None else unit
            # A bare name (Ruby's ``env``) is called on nothing, whatever stands before it.
            receiver = _receiver(node, around, scope, spec, declared, written_receiver) if is_call and not bare else {}
            found.append(Reference(kind=kind, scope=scope, raw=name, line=node.start_point[0] + 1, **receiver))  # type: ignore[arg-type]
    # Imports name the definition around them (a Rust ``use`` in a ``mod tests``), else the file's
    # unit, which the package capture may have set after them. An import may come in two matches, with
    # the name it is bound to and without (JavaScript's ``const users = require('./users')``): the name's.
    named = {(node.start_byte, raw) for node, raw, alias in imports if alias}
    for node, raw, alias in imports:
        if not alias and (node.start_byte, raw) in named:
            continue
        found.append(Reference(
            kind="imports", scope=_scope(node, definitions, unit), raw=raw, line=node.start_point[0] + 1, receiver=alias
        ))
    # The modules the file imports by the names it binds: the whole module's (``const users =
    # require('./users')``), or one of its exports (``import { books } from './books'``).
    modules = {binding.name: binding.source for binding in named_imports if binding.source and not binding.reexport}
    modules.update((alias, raw) for _, raw, alias in imports if alias)
    entrypoints, mounts, handler_values = _entrypoints(path, spec, root, definitions, unit, modules, declared)
    # A route's handler given as a method value (Go's ``r.GET("/users/:id", h.Show)``) refers to that method
    # as a call on its receiver would: the repository pass resolves it by the receiver's type.
    for node in handler_values:
        around = _enclosing(node, definitions)
        scope = around.qname if around is not None else unit
        found.append(Reference(
            kind="calls", scope=scope, raw=_text(node), line=node.start_point[0] + 1, **_receiver(node, around, scope, spec, declared),
        ))
    # One reference per place: the grammar's query and ours may both capture it.
    references = tuple(dict.fromkeys(found))
    top_level = tuple(definition.name for definition in roots)
    # The repository pass keys files by module: files sharing a package keep one each.
    module = unit if spec.unit == "file" else f"{unit}.{posixpath.splitext(posixpath.basename(path))[0]}"
    facts = FileFacts(
        module=module, references=references, top_level=top_level, entrypoints=entrypoints, mounts=mounts,
        named_imports=tuple(dict.fromkeys(named_imports)),
    )
    return symbols, blocks, facts


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
_QUOTES = "\"'`"
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


def _literal(node: tree_sitter.Node) -> str:
    """A string or symbol as written, without its quotes (``'/x'``, ``:photos``)."""
    text = _text(node).strip(_QUOTES)
    return text.removeprefix(":") if "symbol" in node.type else text


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
            named = named.replace("{snake}", _WORD_BOUNDARY.sub("_", route).lower()).replace("{}", route)
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
            found.append(Entrypoint(
                entry_type="cli_command", framework=framework,
                route_or_command=(route.split() or [_program(path, spec)])[0],
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


def _is_value_of(definition: _Definition, parent: _Definition) -> bool:
    """A function that is the value its enclosing definition names: JavaScript's
    ``res.send = function send() {}`` is one function, not ``send`` inside ``send``."""
    node = definition.node.parent
    return (
        definition.kind == "function" and parent.kind in ("function", "method") and node is not None
        and (node.start_byte, node.end_byte) == (parent.node.start_byte, parent.node.end_byte)
    )


def _fold_declarations(scopes: Iterable[list[_Definition]], declarations: frozenset[str]) -> set[int]:
    """Declarations (nodes of the ``declarations`` types: TypeScript's overload signatures) right above
    the definition of the same name and kind are that definition's, not symbols of their own: they
    leave their scope's list and become its ``declarations``. A run of them with nothing defined after
    it (an interface's overloaded methods) stays as it is. Returns the folded definitions' ids."""
    folded: set[int] = set()
    if not declarations:
        return folded
    for children in scopes:
        run: list[_Definition] = []
        for definition in children:
            if run and (run[-1].qname, run[-1].kind) != (definition.qname, definition.kind):
                run = []
            if definition.node.type in declarations:
                run.append(definition)
                continue
            if run:
                definition.declarations = run
                folded.update(id(declaration) for declaration in run)
                run = []
        if any(id(definition) in folded for definition in children):
            children[:] = [definition for definition in children if id(definition) not in folded]
    return folded


def _chunked(definition: _Definition) -> bool:
    """Whether a definition is a block of its own: a one-line property or constant (``val id: String``,
    a data class's parameters) is read with the code around it, not as a chunk of its own."""
    return definition.kind != "const" or definition.node.end_point[0] > definition.node.start_point[0]


def _blocks(definition: _Definition, parent: str) -> list[Block]:
    """A definition's block (a container's members stand in for it: an impl block is its methods)."""
    children = [child for child in definition.children if _chunked(child)]
    if definition.container:
        return [block for child in children for block in _blocks(child, definition.name)]
    # A method defined outside its type is titled with the type (Go's ``Cart.Total``, C++'s ``padded_string::load``).
    own = f"{definition.receiver}.{definition.name}" if definition.receiver else definition.name
    title = f"{parent}.{own}" if parent else own
    members = [block for child in children for block in _blocks(child, definition.name)]
    # The chunk starts at the definition's doc comment and attributes, so they are read and found with it.
    return [Block(
        start=definition.first_row + 1,
        end=_last_row(definition.node) + 1,
        qname=definition.qname,
        title=title,
        members=members,
    )]


_RECEIVER_NAME = re.compile(r"[$A-Za-z_][\w$]*")
# A field of the enclosing object: ``this.repo``, ``$this->repo``, ``self.repo``.
_OWN_FIELD = re.compile(r"([$A-Za-z_][\w$]*)\s*(?:\.|->|\?\.)\s*([A-Za-z_]\w*)")
# What may stand between a call's receiver and its name: type arguments (Java's ``list.<T>of()``).
_BETWEEN_RECEIVER_AND_NAME = frozenset({"type_arguments"})
_TYPE_NAME = re.compile(r"[A-Za-z_]\w*")
# Words a declaration writes where the type is left to the compiler.
_INFERRED_TYPES = frozenset({"var", "auto", "dynamic", "let", "val"})


def _receiver(
    name: tree_sitter.Node,
    around: _Definition | None,
    scope: str,
    spec: LanguageSpec,
    declared: dict[tuple[str, str], str],
    written_receiver: tree_sitter.Node | None = None,
) -> dict[str, str]:
    """What the called ``name`` is called on (``Reference.receiver``), and the type it is declared with
    when the file says (``Reference.receiver_type``): the query's ``@receiver`` when it names one (the
    path of Rust's ``walk::WalkBuilder::new()``, kept as written), else the node before the name in its
    expression (``obj`` of ``obj.name()``, ``Foo`` of ``Foo::name()``, ``$this->a`` of ``$this->a->name()``),
    or before the wrapper that holds it alone (Kotlin's navigation suffix)."""
    before = written_receiver or name.prev_named_sibling
    parent = name.parent if before is None else None
    if parent is not None and parent.named_child_count == 1 and parent.type != "call":
        before = parent.prev_named_sibling
    while before is not None and before.type in _BETWEEN_RECEIVER_AND_NAME:
        before = before.prev_named_sibling
    if before is None:
        return {}
    written = _text(before)
    own = _receiver_variable(around)
    if written in spec.self_names or written == own:
        return {"receiver": SELF_RECEIVER}
    if written_receiver is not None and not _RECEIVER_NAME.fullmatch(written):
        return {"receiver": written}
    if _RECEIVER_NAME.fullmatch(written):
        return {"receiver": written, "receiver_type": _declared_type(declared, scope, written.lstrip("$"))}
    field = _OWN_FIELD.fullmatch(written)
    if field is not None and (field.group(1) in spec.self_names or field.group(1) == own):
        return {"receiver": EXPRESSION_RECEIVER, "receiver_type": _declared_type(declared, scope, field.group(2))}
    return {"receiver": EXPRESSION_RECEIVER}


@cache
def _locals_query(spec: LanguageSpec) -> tree_sitter.Query | None:
    """The language's locals query (``LanguageSpec.locals_source``), compiled once."""
    source = spec.locals_source
    return tree_sitter.Query(_language(spec), source) if source else None


# A local scope (by its span): the names defined in it with the first byte each is defined at, and
# whether the scope sees the names of the scopes around it (a Ruby block does, a method does not).
_LocalScope = tuple[dict[str, int], bool]


def _local_names(spec: LanguageSpec, root: tree_sitter.Node) -> _Spans[_LocalScope]:
    """The parameters and local variables of each local scope (``@local.scope``, ``@local.definition``
    of the tree-sitter locals convention); empty for a language without a locals query."""
    scopes: _Spans[_LocalScope] = _Spans()
    query = _locals_query(spec)
    if query is None:
        return scopes
    definitions: list[tree_sitter.Node] = []
    for pattern, captures in _matches(query, root):
        for node in captures.get("local.scope", ()):
            inherits = query.pattern_settings(pattern).get("local.scope-inherits") != "false"
            scopes.setdefault((node.start_byte, node.end_byte), ({}, inherits))
        definitions.extend(captures.get("local.definition", ()))
    for node in definitions:
        around = scopes.around(node)
        if around is not None:
            names = around[0]
            name = _text(node)
            names[name] = min(names.get(name, node.start_byte), node.start_byte)
    return scopes


def _is_local(node: tree_sitter.Node, name: str, scopes: _Spans[_LocalScope]) -> bool:
    """Whether ``name`` at ``node`` is a parameter or a local variable defined before it in a scope
    around it that it can see."""
    for span in reversed(scopes.chain(node)):
        names, inherits = scopes[span]
        if names.get(name, node.end_byte) <= node.start_byte:
            return True
        if not inherits:
            return False
    return False


def _declared_types(
    spec: LanguageSpec, root: tree_sitter.Node, definitions: _Definitions, unit: str
) -> dict[tuple[str, str], str]:
    """(scope, name) -> the name of the type the name is declared with there (``types.scm``); empty
    when the scope declares it twice with different types. A ``@variable`` belongs to the definition
    around it, a ``@field`` to the one around that (``this.cart = new Cart()`` in a constructor, PHP's
    promoted constructor parameters: the class's). Names are kept without PHP's ``$``."""
    query = _types_query(spec)
    if query is None:
        return {}
    found: dict[tuple[str, str], str] = {}
    for _pattern, captures in _matches(query, root):
        named = captures.get("variable") or captures.get("field")
        if not named:
            continue
        if "returned" in captures:
            # Bound to a call's result: the type the called function returns, looked up with the
            # repository's functions (``Reference.receiver_type``).
            names = [_text(captures["returned"][0]) + RETURNED]
        elif "type" in captures:
            # The type's own name: ``Cart`` of ``*Cart``, ``shop.Cart``, ``List<Item>``, ``Cart[]``, ``?Cart``.
            names = _TYPE_NAME.findall(_text(captures["type"][0]).split("<", 1)[0].split("[", 1)[0])
        else:
            continue
        if not names or names[-1] in _INFERRED_TYPES:
            continue
        name = _text(named[0]).lstrip("$")
        scope = _scope(named[0], definitions, unit)
        # A property that is a symbol of its own (PHP's) is declared in the class around it.
        if "field" in captures or scope.rsplit(".", 1)[-1] == name:
            scope = scope.rsplit(".", 1)[0]
        key = (scope, name)
        if found.setdefault(key, names[-1]) != names[-1]:
            found[key] = ""
    return found


def _declared_type(declared: dict[tuple[str, str], str], scope: str, variable: str) -> str:
    """The type ``variable`` is declared with in ``scope`` or the nearest scope around it (a method's
    parameters and locals, then its class's fields)."""
    while True:
        found = declared.get((scope, variable))
        if found is not None or "." not in scope:
            return found or ""
        scope = scope.rsplit(".", 1)[0]


def _receiver_variable(around: _Definition | None) -> str:
    """The name a Go method gives its receiver (``f`` of ``func (f *Filter) Add()``); empty for
    other definitions."""
    receiver = around.node.child_by_field_name("receiver") if around is not None else None
    if receiver is None or not receiver.named_children:
        return ""
    variable = receiver.named_children[0].child_by_field_name("name")
    return _text(variable) if variable is not None else ""


def _enclosing(node: tree_sitter.Node, definitions: _Definitions) -> _Definition | None:
    """The innermost definition around ``node``."""
    return definitions.around(node)


def _scope(node: tree_sitter.Node, definitions: _Definitions, unit: str) -> str:
    """The qualified name of the innermost definition around ``node`` (the file's unit outside any)."""
    around = _enclosing(node, definitions)
    return around.qname if around is not None else unit
