"""The languages' specifications: each folder's ``language.toml`` and ``.scm`` queries, read once per process.

``spec_for(path)`` finds the language of a file by its suffix (a header claimed by C and C++ goes to the one
its code reads as); ``is_test_file`` and ``named_by_folder`` tell test files by every ecosystem's conventions;
``unit_name`` and ``written_name`` give a file's unit and a qualified name in the language's own form.
"""

from __future__ import annotations

import importlib
import importlib.resources
import posixpath
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pathspec
import tree_sitter

from rag.analysis.languages.components import component_script

FOLDER = Path(__file__).resolve().parent
# How a package's parts are separated where they are not dots (Rust's ``::``, PHP's ``\``).
NAMESPACE_SEPARATOR = re.compile(r"::|\\")


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
    # How imports find their files (rag/analysis/imports.py): ``cargo`` (crates and their module
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
    # Whole file names of the language's files that have no suffix (Ruby's ``Rakefile``).
    file_names: tuple[str, ...] = ()
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
            file_names=tuple(table.get("file_names", ())),
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
    """Every language folder, by suffix (``.rb``) and by the file names it claims whole, in lower case (``rakefile``)."""
    found: dict[str, LanguageSpec] = {}
    for folder in sorted(FOLDER.iterdir()):
        if (folder / "language.toml").exists():
            spec = LanguageSpec.load(folder)
            for suffix in spec.suffixes:
                found[suffix] = spec
            for name in spec.file_names:
                found[name.lower()] = spec
    return found


def spec_for(path: str, text: str | None = None) -> LanguageSpec | None:
    """The language of a file by its suffix, or by its whole name when it has none (``Rakefile``); with its
    ``text``, another language that claims the suffix and recognises the text wins (a C++ header named ``.h``)."""
    name = posixpath.basename(path).lower()
    suffix = posixpath.splitext(name)[1]
    if not suffix and name in specs():
        return specs()[name]
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


@cache
def _locals_query(spec: LanguageSpec) -> tree_sitter.Query | None:
    """The language's locals query (``LanguageSpec.locals_source``), compiled once."""
    source = spec.locals_source
    return tree_sitter.Query(_language(spec), source) if source else None
