"""C2 edges of every file's facts together, and the names routes and configurations give
(``RepositoryEdges``).

Python's names resolve through ``rag.analysis.names`` (``self.x``/``cls.x`` look in the enclosing class
and its bases, ``super().x`` in the bases only, and a local variable built by ``Class(...)`` or annotated
with a class has that class); other languages' by name, import (``rag.analysis.imports``) and what a
call is made on.

Destinations are symbol qnames, or module names for imports of modules, or
``module.name`` for imports of module-level variables (apps, routers).
Anything that does not resolve inside the repository keeps its raw text with
resolution ``partial``. C3 entrypoints are found over the same names by
``rag.analysis.entrypoints``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property, lru_cache

from rag.analysis.candidates import (
    CandidatesByName,
    any_of,
    current_work,
    kept,
    keyed,
    methods_of,
    nearest,
    others_of,
    owned_by,
    owner_name,
    plain,
    select,
    symbol_folder,
    symbol_kind,
    symbol_module,
    whole,
    with_parent,
)
from rag.analysis.facts import (
    RETURNED,
    SELF_RECEIVER,
    Reference,
)
from rag.analysis.imports import ImportTargets, shared_folders
from rag.analysis.languages.spec import LanguageSpec, name_space, spec_named
from rag.analysis.names import RepositoryNames
from rag.analysis.python_source import BUILTIN_NAMES
from rag.analysis.records import Edge, Symbol
from rag.analysis.results import FileAnalysis


def _dependency_edges(names: RepositoryNames, analysis: FileAnalysis) -> list[Edge]:
    facts = analysis.facts
    if facts is None or facts.module is None:
        return []
    module = facts.module
    edges: list[Edge] = []
    seen: set[tuple[str, str]] = set()
    statements: dict[tuple[str, int], list[str]] = {}
    for binding in facts.imports:
        statements.setdefault((binding.scope, binding.line), []).append(binding.target)
    for binding in facts.imports:
        key = (binding.scope, binding.target)
        siblings = statements[(binding.scope, binding.line)]
        # ``import a.b`` binds ``a`` but imports ``a.b``: one edge, to the longer name.
        if key in seen or any(target.startswith(binding.target + ".") for target in siblings):
            continue
        seen.add(key)
        found = names.locate(binding.target)
        edges.append(_edge("imports", binding.scope, binding.target, found[1] if found else None, analysis, binding.line))
    for reference in facts.references:
        dst = names.resolve(reference.raw, reference.scope, module, reference.class_scope, reference.receiver_type)
        if dst is None and reference.raw in BUILTIN_NAMES:
            continue  # kept by the file only because a star import might rebind it; it did not
        edges.append(_edge(reference.kind, reference.scope, reference.raw, dst, analysis, reference.line))
    return edges


def _names_of_other_languages(analyses: Iterable[FileAnalysis]) -> dict[tuple[str, str], list[Symbol]]:
    """The symbols of every language read with tree-sitter, by (its names' space: ``name_space``, short name)."""
    found: dict[tuple[str, str], list[Symbol]] = {}
    for analysis in analyses:
        if analysis.language != "python":
            for symbol in analysis.symbols:
                found.setdefault((name_space(analysis.language), symbol.name), []).append(symbol)
    return found


_IMPORT_PATH_PARTS = re.compile(r"::|[./\\]")


def _bases_of_other_languages(analyses: Iterable[FileAnalysis]) -> dict[tuple[str, str], set[str]]:
    """The names a type of a tree-sitter language extends or implements, by (language, its short name)."""
    bases: dict[tuple[str, str], set[str]] = {}
    for analysis in analyses:
        if analysis.language != "python" and analysis.facts is not None:
            for reference in analysis.facts.references:
                if reference.kind == "inherits":
                    bases.setdefault((name_space(analysis.language), reference.scope.rsplit(".", 1)[-1]), set()).add(reference.raw)
    return bases


# How far up a declared type's bases a method is looked for.
_BASE_DEPTH = 4


def _members_of(
    candidates: list[Symbol], type_name: str, bases_of: Callable[[str], set[str]],
    owner: Callable[[Symbol], str] = owner_name,
) -> list[Symbol]:
    """The candidates that are members of ``type_name`` (named by its short name), else of the nearest
    of its bases that has one (a method it inherits); with ``owner``, those whose owner it names is the
    type (the type an extension function extends)."""
    return _nearest_members(candidates, {type_name}, bases_of, owner)


def _nearest_members(
    candidates: list[Symbol], types: set[str], bases_of: Callable[[str], set[str]],
    owner: Callable[[Symbol], str] = owner_name,
) -> list[Symbol]:
    """The candidates that are members of ``types`` (short names), else of the nearest of their bases."""
    level, seen = set(types), set(types)
    for _ in range(_BASE_DEPTH):
        members = owned_by(candidates, level) if owner is owner_name else [s for s in candidates if owner(s) in level]
        if members:
            return members
        level = {base for name in level for base in bases_of(name)} - seen
        if not level:
            return []
        seen |= level
    return []


def _named_edges(
    by_name: dict[tuple[str, str], list[Symbol]],
    choices: CandidatesByName,
    imports: ImportTargets,
    analysis: FileAnalysis,
    bases: dict[tuple[str, str], set[str]],
    top_level_mixins: Mapping[str, frozenset[str]],
) -> list[Edge]:
    """Calls and type references of a tree-sitter language, resolved by name as code navigation does.

    A name resolves to the symbol of that name in the same file, else in the
    same folder (a Go package, a Java package's directory), else to the only
    symbol of that name in the repository's files of the language; anything
    else stays ``partial`` with the name kept.

    A call with no receiver reaches functions and types, and the members of an
    inline module around it (Rust's ``mod tests``); a method only where the
    language calls its own object's methods bare (``implicit_self`` in its
    ``language.toml``: Java, Kotlin, C#, C++, Ruby), and then only a method of a
    class around the call, of a class nested in it, or of their bases (Ruby's
    mixed-in modules included). A name the language provides itself
    (``builtins``: Go's ``panic``, Rust's ``println!``, Ruby's ``puts``) resolves
    only in the caller's own file or folder, never to a symbol found elsewhere
    by its name alone.

    A method call is resolved by what it is called on (``Reference.receiver``):
    on the enclosing object, to a member of the enclosing class first, else of its nearest base that has
    one (Ruby's mixed-in modules included); on a
    variable or field the file declares with a type, among that type's
    members, else its nearest base's that has one (``Reference.receiver_type``;
    bases are what the repository's types extend or implement); on a name that qualifies the symbol
    (``JsonParser.parseString``, Go's ``redis.NewScript``, ``utils.format`` of a
    module object, ``Foo::new``), among the symbols it qualifies; on a Rust path
    (``walk::WalkBuilder::new``, ``crate::a::f``), first through the crates'
    module trees as a ``use`` of it would be. On any other value, whose type is
    not known here, only to the one symbol of that name in the repository, and
    only when the caller can see it (its file or folder, its package or crate, or
    what it imports) and the name is not one of the standard library's common
    methods (``library_methods``: Rust's ``unwrap``, Java's ``toString``): a
    method of the same name in the same file or folder is no more likely to be
    the one called (``errors.New`` is not the package's own ``New``).
    """
    facts = analysis.facts
    if facts is None:
        return []
    targets = {r: imports.target(r.raw, analysis, r.scope) for r in facts.references if r.kind == "imports"}
    # What the file imports from outside the repository, by the name a call's receiver writes
    # (``errors`` of Go's ``errors``, ``Logger`` of ``java.util.logging.Logger``).
    libraries = {_IMPORT_PATH_PARTS.split(r.raw)[-1] for r, target in targets.items() if target is None}
    spec = spec_named(analysis.language)
    # Names are looked up in the language's name space (Kotlin's calls find Java's classes).
    language = name_space(analysis.language)
    implicit_self = spec is not None and spec.implicit_self
    builtins = spec.builtins if spec is not None else frozenset()
    not_repository = builtins | (spec.library_methods if spec is not None else frozenset())
    paths = spec is not None and spec.module_system == "cargo"
    imported = {target for target in targets.values() if target}
    # The names the file's imports bind (``Exception`` of PHP's ``use Exception;``): a bare reference to one
    # is that import's symbol, or nothing of the repository when the import is a library's.
    bound: dict[str, str | None] = {}
    if spec is not None and spec.imports_bind_names:
        for r, target in targets.items():
            if target is None or (language, target) in imports.qnames:
                bound.setdefault(r.receiver or _IMPORT_PATH_PARTS.split(r.raw)[-1], target)
    namespaces: dict[str, str] = {}
    if spec is not None and spec.module_system == "es":
        # The names an ES module imports by name: a bare call of one is the call of what the module it
        # names exports by it; of nothing in the repository when the module is a package from the registry.
        # Each statement's module was found for its own import: by the specifier it names.
        # A module imported whole under a name (``import * as fmt from './format'``), or a name another module
        # passes one on by (``export * as fmt from './format'``): a call on the name is of what it exports.
        modules = {reference.raw: target for reference, target in targets.items()}
        for binding in facts.named_imports:
            if binding.reexport:
                continue
            module = modules[binding.source] if binding.source in modules else imports.target(binding.source, analysis)
            if module is not None:
                found = module if binding.member == "*" else imports.exported(module, binding.member)
                if found in imports.es_modules:
                    namespaces.setdefault(binding.name, found)
                elif found is not None:
                    bound.setdefault(binding.name, found)
            elif not binding.source.startswith((".", "/")):
                bound.setdefault(binding.name, None)
    # Go's packages by the name the file calls them (the name it gives one, else its path's last element
    # before a major version: ``errors``, ``chi`` of ``github.com/go-chi/chi/v5``): ``del.NewCmdRemove()``
    # is that package's function, whatever other packages define of that name.
    package_names: dict[str, str] = {}
    if spec is not None and spec.module_system == "go":
        for r, target in targets.items():
            if target:
                package_names.setdefault(r.receiver or _go_package_name(r.raw), target)
    # What the file's imports name (Java's ``import static a.B.same``), and the types whose members a glob
    # imports (``import static a.B.*``): a bare call may be one of those.
    named = imported | {f"{target}.*" for r, target in targets.items() if target and r.raw.endswith("*")}
    visible = _Visibility(imports, analysis, imported)
    unit = imports.units.get(analysis.path)
    own_package = spec is not None and spec.bare_calls == "package"
    imported_only = spec is not None and spec.bare_calls == "imports"
    lexical_types = spec is not None and spec.lexical_types
    reopened_types = spec is not None and spec.reopened_types
    everywhere = top_level_mixins.get(language, frozenset())

    def bases_of(type_name: str) -> set[str]:
        return bases.get((language, type_name), set())

    extension_receiver = spec.extension_receiver if spec is not None else None

    def extended(symbol: Symbol) -> str:
        """The short name of the type ``symbol`` extends when it is an extension function, else empty."""
        found = extension_receiver.search(symbol.signature) if extension_receiver is not None else None
        return found.group(1).rsplit(".", 1)[-1] if found else ""

    def extensions_of(candidates: list[Symbol], type_name: str) -> list[Symbol]:
        """The extension functions among ``candidates`` of ``type_name`` or its bases that the caller sees."""
        if extension_receiver is None or not type_name:
            return []
        return [s for s in _members_of(candidates, type_name, bases_of, extended) if visible(s)]

    interface_prefix = spec.interface_prefix if spec is not None else ""

    def repository_type(type_name: str) -> bool:
        return any(s.kind == "class" for s in by_name.get((language, type_name), ()))

    # Per scope of the file's references (many share one): what ``extended_by_scope`` found.
    extended_scopes: dict[str, str] = {}

    def extended_by_scope(scope: str) -> str:
        """The type the extension function ``scope`` (or one around it) extends: its implicit receiver."""
        if extension_receiver is None:
            return ""
        if scope not in extended_scopes:
            around, extends = scope, ""
            while around and not extends:
                found = next(iter(choices.named(language, around.rsplit(".", 1)[-1], around)), None)
                extends = extended(found) if found is not None else ""
                around = around.rsplit(".", 1)[0] if "." in around else ""
            extended_scopes[scope] = extends
        return extended_scopes[scope]

    work = current_work()
    edges: list[Edge] = []
    for reference in facts.references:
        if reference.kind == "imports":
            edges.append(_edge("imports", reference.scope, reference.raw, targets[reference], analysis, reference.line))
            continue
        if not reference.receiver and reference.raw in bound:
            edges.append(_edge(reference.kind, reference.scope, reference.raw, bound[reference.raw], analysis, reference.line))
            continue
        if work is not None and work.spent:
            work.unresolved += 1
            edges.append(_edge(reference.kind, reference.scope, reference.raw, None, analysis, reference.line))
            continue
        if reference.receiver in namespaces:
            dst = imports.exported(namespaces[reference.receiver], reference.raw)
            edges.append(_edge(reference.kind, reference.scope, reference.raw, dst, analysis, reference.line))
            continue
        named_here = choices.of(analysis.language, reference.raw, reference.kind)
        candidates: list[Symbol] = named_here
        # A definition does not call itself by its own name, unless it is one of several overloads (C#'s
        # ``Map(source) => Map(source, null)``): the call is then another of that name.
        defined = len(choices.named(language, reference.raw, reference.scope))
        if defined and not (defined > 1 and reference.scope.endswith("." + reference.raw)):
            candidates = named_here.without(reference.scope)
        receiver = reference.receiver
        implicit = extended_by_scope(reference.scope) if reference.kind == "calls" and receiver in ("", SELF_RECEIVER) else ""
        # In an extension function, ``this`` (written or not) is the extended type's value.
        own = (_members_of(candidates, implicit, bases_of) or extensions_of(candidates, implicit)) if implicit else []
        if own:
            candidates = own
        elif receiver == SELF_RECEIVER:
            candidates = (
                _own_members(candidates, reference.scope)
                or _inherited_members(candidates, reference.scope, bases_of)
                or candidates
            )
        elif receiver:
            if paths and "::" in receiver:
                dst = _rust_path(imports, analysis, reference, language)
                if dst is not None:
                    edges.append(_edge(reference.kind, reference.scope, reference.raw, dst, analysis, reference.line))
                    continue
            qualifier = reference.receiver_type or _last_name(receiver)
            if qualifier.endswith(RETURNED):
                qualifier = _returned_type(choices, analysis, spec, qualifier.removesuffix(RETURNED), visible)
            target = bound.get(receiver)
            if receiver in package_names:
                qualified = [s for s in keyed(candidates, (package_names[receiver],), symbol_module) if s.parent is None]
            elif target:
                # A class the file imports, perhaps by another name (``use App\\Support\\Str as S; S::slug()``):
                # its own members, else its bases'.
                qualified = with_parent(candidates, target) or _members_of(
                    candidates, target.rsplit(".", 1)[-1], bases_of
                )
            else:
                qualified = _members_of(candidates, qualifier, bases_of)
            if not qualified and reference.receiver_type:
                # A type's extension functions are called as its members are (Kotlin's, C#'s).
                qualified = extensions_of(candidates, qualifier)
                if not qualified and interface_prefix and not repository_type(qualifier):
                    # A library's class, whose bases are not known here, implements the interface its name
                    # says (C#'s ``ServiceCollection`` is an ``IServiceCollection``): that interface's extensions.
                    qualified = extensions_of(candidates, interface_prefix + qualifier)
            if not qualified:
                # On a value of a declared type that has no such member, nor its bases (a library's
                # ``List``, a library's base class) or on what an import names (a library's class or package:
                # ``Logger.getLogger``, ``errors.New``), nothing of the repository; on a value of a type
                # not known here, only a name the repository defines once, that the caller can see,
                # and that is not a common method of the standard library.
                unknown = not reference.receiver_type and receiver not in libraries and receiver not in package_names
                dst = None
                if unknown and len(candidates) == 1 and reference.raw not in not_repository and visible(candidates[0]):
                    dst = candidates[0].qname
                edges.append(_edge(reference.kind, reference.scope, reference.raw, dst, analysis, reference.line))
                continue
            if reference.receiver_type and len(qualified) > 1:
                # A type known by its name alone that several packages define (each example of a repository
                # of examples has its ``AuthHandler``): the one the caller sees, when it sees any.
                qualified = visible.seen(qualified) or qualified
            candidates = qualified
        elif reference.kind == "calls" and not own:
            candidates = _bare_reach(
                candidates, reference.scope, implicit_self, imports.inline_modules, named, choices, language, bases_of
            )
            if own_package:
                candidates = keyed(candidates, (unit,), symbol_module)
            elif imported_only:
                # A function or class is called bare from its own package or where the file imports it; a
                # method through the implicit receiver.
                candidates = visible.among(candidates)
        if not receiver and lexical_types and reference.kind == "calls":
            candidates = _lexically_visible(candidates, reference.scope, unit, everywhere)
        if reopened_types and len(candidates) > 1:
            candidates = _reopened(candidates)
        chosen = _nearest(candidates, analysis)
        if not receiver and reference.raw in builtins and not _beside(chosen, analysis):
            chosen = []  # the language's own, not a symbol of the same name elsewhere in the repository
        # Overloads share a name: one target.
        dst = chosen[0].qname if chosen and all(s.qname == chosen[0].qname for s in chosen) else None
        edges.append(_edge(reference.kind, reference.scope, reference.raw, dst, analysis, reference.line))
    return edges


_MAJOR_VERSION = re.compile(r"v\d+")


def _go_package_name(import_path: str) -> str:
    """The name a Go package is called by when its import does not name it: its path's last element, the
    one before a major version suffix (``github.com/go-chi/chi/v5`` is ``chi``)."""
    parts = import_path.split("/")
    return parts[-2] if len(parts) > 1 and _MAJOR_VERSION.fullmatch(parts[-1]) else parts[-1]


# Type arguments in a path (``Vec::<u8>::new``, ``HashMap<K, V>::new``).
_TYPE_ARGUMENTS = re.compile(r"(?:::)?<[^<>]*(?:<[^<>]*>[^<>]*)*>")


def _last_name(receiver: str) -> str:
    """The name a path ends with, without type arguments: ``WalkBuilder`` of ``ignore::WalkBuilder``."""
    return _TYPE_ARGUMENTS.sub("", receiver).rsplit("::", 1)[-1]


def _rust_path(imports: ImportTargets, analysis: FileAnalysis, reference: Reference, language: str) -> str | None:
    """The item a Rust call through a path names (``crate::walk::walk``, ``ignore::WalkBuilder::new``, ``b::f``
    of a ``use crate::a::b``), found through the crates' module trees as a ``use`` of the path would be."""
    path = _TYPE_ARGUMENTS.sub("", reference.receiver).split("::")
    if not all(path):
        return None
    written = ["::".join([*path, reference.raw])]
    written += ["::".join([use, *path[1:], reference.raw]) for use in imports.rust_uses.get(analysis.path, {}).get(path[0], ())]
    for raw in written:
        found = imports.target(raw, analysis, reference.scope)
        if found is not None and found != reference.scope and found.endswith("." + reference.raw) and (language, found) in imports.qnames:
            return found
    return None


def _bare_reach(
    candidates: list[Symbol],
    scope: str,
    implicit_self: bool,
    namespaces: set[str],
    named: set[str],
    choices: CandidatesByName,
    language: str,
    bases_of: Callable[[str], set[str]],
) -> list[Symbol]:
    """What a call with no receiver in ``scope`` can reach among ``candidates``: functions and types, but a
    function local to another function only from within it; methods of an inline module around it, or that
    the file imports by name (Java's ``import static``); where the language has an implicit receiver,
    methods of the classes around it, of classes nested in its own class (Kotlin's companion object), and
    of their bases."""
    around = [scope]
    while "." in around[-1]:
        around.append(around[-1].rsplit(".", 1)[0])
    enclosing = set(around)

    if plain(candidates):
        return candidates  # functions and types at the top of their files: every one is reached

    def first(qname: str) -> Symbol | None:
        return next(iter(choices.named(language, qname.rsplit(".", 1)[-1], qname)), None)

    def kind_of(qname: str) -> str:
        found = first(qname)
        return found.kind if found is not None else ""

    own = first(scope)
    own_class = own.parent if own is not None else None
    methods = methods_of(candidates)
    others = others_of(candidates)

    def local_to(symbol: Symbol) -> str | None:
        """The function or method a symbol is local to (its parent, when it is one); None for others."""
        return symbol.parent if symbol.parent and kind_of(symbol.parent) in ("function", "method") else None

    # Most often no symbol of the name is local to a function: the list is then reached whole, as it is
    # (and what is kept on it), read once for the whole list however many calls name it; else all but
    # the functions local to one the call is not in.
    if kept(whole(others), "local functions", lambda symbols: any(local_to(s) for s in symbols)):
        reached = keyed(others, (None, *enclosing), local_to)
    else:
        reached = others
    functions = len(reached)
    # The methods the file imports by name or by their class (``a.B.*``), of an enclosing class or inline
    # module, or of a class nested in its own class.
    if more := select(
        methods,
        {name[:-2] for name in named if name.endswith(".*")} | {p for p in enclosing if implicit_self or p in namespaces},
        {name for name in named if not name.endswith(".*")},
        own_class + "." if implicit_self and own_class else "",
    ):
        reached = [*reached, *more]
    if implicit_self and methods and len(reached) == functions:
        for name in around:
            # Every base's, so which of two bases that have it is taken is the nearest's, not the set's order.
            inherited = [m for base in sorted(bases_of(name.rsplit(".", 1)[-1])) for m in _members_of(methods, base, bases_of)]
            if inherited:
                return reached + inherited
    return reached


class _Visibility:
    """Whether the caller's file can see a symbol without knowing its type: one of its own folder, package
    (Go's, Java's) or crate (Rust's), or of what the file imports (a file, a package, a module, a class).
    The rules are lookups by key, so a long list of candidates is read through its indexes (``among``)."""

    def __init__(self, imports: ImportTargets, analysis: FileAnalysis, imported: set[str]) -> None:
        self.imported = imported
        self.lookups: list[tuple[Iterable[str | None], Callable[[Symbol], str | None]]] = [
            ((posixpath.dirname(analysis.path),), symbol_folder), ((imports.units.get(analysis.path),), symbol_module),
            # What the file imports from inside a module: that module's symbols are seen.
            ({prefix for target in imported for prefix in _dotted_prefixes(target)}, symbol_module),
        ]
        crate = imports.crate_root(analysis.path)
        if crate is not None:
            self.lookups.append(((crate,), imports.symbol_crate))
        # What the file imports, and what is inside it.
        self.prefixes = [target + "." for target in imported]

    def __call__(self, symbol: Symbol) -> bool:
        return bool(self.seen([symbol]))

    def seen(self, candidates: list[Symbol]) -> list[Symbol]:
        """The candidates the file sees, in their order."""
        return any_of(candidates, self.lookups, qnames=self.imported, qname_prefixes=self.prefixes)

    def among(self, candidates: list[Symbol]) -> list[Symbol]:
        """The methods among the candidates and those the file sees, in their order (a name thousands of
        files define is looked up at every call of it)."""
        return any_of(candidates, [(("method",), symbol_kind), *self.lookups], qnames=self.imported, qname_prefixes=self.prefixes)


def _dotted_prefixes(name: str) -> list[str]:
    """``a`` and ``a.b`` of ``a.b.c``: what ``name`` starts with, followed by a dot."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _beside(candidates: list[Symbol], analysis: FileAnalysis) -> bool:
    """Whether the candidates are in the caller's own file or folder."""
    folder = posixpath.dirname(analysis.path)
    return any(s.path == analysis.path or posixpath.dirname(s.path) == folder for s in candidates)


def _returned_type(
    choices: CandidatesByName, analysis: FileAnalysis, spec: LanguageSpec | None, function: str, visible: _Visibility
) -> str:
    """The name of the type ``function`` returns (its language's ``returns`` read from its signature): the
    function of that name in the caller's file, else its folder, else the one the caller sees (an imported
    package's: ``handlers.NewAuthHandler``); empty when that is not known."""
    if spec is None or spec.returns is None:
        return ""
    functions = keyed(choices.of(analysis.language, function, "calls"), ("function",), symbol_kind)
    chosen = _nearest(functions, analysis)
    if len(chosen) > 1 and not _beside(chosen[:1], analysis):
        chosen = visible.seen(functions)
    if len(chosen) != 1:
        return ""
    found = spec.returns.match(chosen[0].signature)
    return found.group(1) if found else ""


def _nearest(candidates: list[Symbol], analysis: FileAnalysis) -> list[Symbol]:
    """The candidates in ``analysis``'s file, else in its folder, else all of them."""
    return nearest(candidates, analysis.path)


def _own_members(candidates: list[Symbol], scope: str) -> list[Symbol]:
    """The candidates that are members of the innermost class around ``scope`` (a method's qname)."""
    owner = scope
    while "." in owner:
        owner = owner.rsplit(".", 1)[0]
        members = with_parent(candidates, owner)
        if members:
            return members
    return []


def _own_path(symbol: Symbol) -> str:
    """A symbol's name inside its file's module: ``Jekyll.Site`` of ``lib.jekyll.site.Jekyll.Site``."""
    return symbol.qname[len(symbol.module) + 1:] if symbol.qname.startswith(symbol.module + ".") else symbol.qname


def _reopened(candidates: list[Symbol]) -> list[Symbol]:
    """Definitions of one class or module in several files (Ruby reopens them) as one: the definition in
    the file named after it (``lib/jekyll/site.rb`` for ``Jekyll::Site``), else the longest; other
    candidates as they are. Read once per list of candidates (``kept``)."""
    return kept(candidates, "reopened", _one_definition)


def _one_definition(candidates: list[Symbol]) -> list[Symbol]:
    if any(s.kind != "class" for s in candidates) or len({_own_path(s) for s in candidates}) != 1:
        return candidates
    snake = _snake_case(candidates[0].name)
    named = [s for s in candidates if _file_stem(s.path) == snake]
    return named[:1] or [max(candidates, key=lambda s: (s.end_line - s.start_line, s.path))]


@lru_cache(maxsize=1024)
def _snake_case(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


# A module reopened in a thousand files (Rails' ``ActiveSupport``) is weighed at each reference to it.
@lru_cache(maxsize=65536)
def _file_stem(path: str) -> str:
    return posixpath.splitext(posixpath.basename(path))[0]


def _lexically_visible(candidates: list[Symbol], scope: str, unit: str | None, everywhere: frozenset[str]) -> list[Symbol]:
    """The candidates a bare name in ``scope`` can name where types are found lexically: any that is no
    type, and the types defined at the top, directly in one of the namespaces around ``scope``, or in a
    module ``everywhere`` names (one a file includes at its top: Ruby's ``include Jekyll`` of a test helper)."""
    inside = scope[len(unit) + 1:] if unit and scope.startswith(unit + ".") else "" if scope == unit else scope
    around = {"", *everywhere}
    parts = inside.split(".") if inside else []
    around.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    # The namespaces the types of the name are defined in, read once for the whole list (``kept``): most
    # often all of them are seen from here, and the list is kept as it is (and what else is kept on it).
    if kept(whole(candidates), "type namespaces", _type_namespaces) <= around:
        return candidates
    return keyed(candidates, (None, *around), _type_namespace)


def _type_namespaces(candidates: list[Symbol]) -> set[str | None]:
    return {_type_namespace(s) for s in candidates} - {None}


def _type_namespace(symbol: Symbol) -> str | None:
    """The namespace a type is defined in (``_namespace``); None for anything else."""
    return _namespace(symbol) if symbol.kind == "class" else None


def _namespace(symbol: Symbol) -> str:
    """The namespace a symbol is defined in, inside its file's module (``Jekyll`` of ``Jekyll.Site``)."""
    own = _own_path(symbol)
    return own.rsplit(".", 1)[0] if "." in own else ""


def _inherited_members(candidates: list[Symbol], scope: str, bases_of: Callable[[str], set[str]]) -> list[Symbol]:
    """The candidates that the innermost class around ``scope`` with bases inherits: members of its nearest
    base that has one (``$this->x()`` or ``parent::__construct()`` of a method the class does not define)."""
    owner = scope
    while "." in owner:
        owner = owner.rsplit(".", 1)[0]
        bases = bases_of(owner.rsplit(".", 1)[-1])
        if bases:
            return _nearest_members(candidates, bases, bases_of)
    return []


def _edge(kind: str, src: str, raw: str, dst: str | None, analysis: FileAnalysis, line: int) -> Edge:
    return Edge(
        kind=kind,  # type: ignore[arg-type]
        src=src,
        raw=raw,
        dst=dst,
        resolution="resolved" if dst is not None else "partial",
        path=analysis.path,
        line=line,
    )


# Handlers as routes name them (``RepositoryEdges.named_handler``): Rails' ``admin/articles#show``; a
# class and its method, ``[App\\C::class, 'm']``, ``C@m``, ``C::m``, ``C:m``; a name; a module and a name.
_CONTROLLER_ACTION = re.compile(r"([a-z][\w/]*)#(\w+[?!]?)")
# Hanami's action key (``books.index``, ``admin.books.show``): the action class of ``actions/books/index.rb``.
_ACTION_KEY = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+")
_NAME = re.compile(r"[A-Za-z_]\w*")
_MODULE_AND_NAME = re.compile(r"([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)")
# A class named whole, in its package, and its method: Play's ``controllers.HomeController.index``.
_QUALIFIED_METHOD = re.compile(r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\.([A-Za-z_$][\w$]*)")
# A path of modules to a name: ``handlers::parts::show`` (the module is ``parts``).
_MODULE_PATH = re.compile(r"((?:[A-Za-z_]\w*::)+[A-Za-z_]\w*)::([A-Za-z_]\w*)")
# A module named by its dotted alias and its function (Phoenix's ``PostLive.Show@mount``): the last part is the module.
_ALIAS_AND_FUNCTION = re.compile(r"((?:[A-Z]\w*\.)+[A-Z]\w*)@(\w+)")
_CLASS_AND_METHOD = re.compile(r"\[?\s*\\?([A-Za-z_][\w\\]*)(?:::class\s*,\s*['\"]|@|::|:)(\w+)['\"]?\s*\]?")


class RepositoryEdges:
    """C2 edges of the repository's files: Python's by name resolution, other languages' by name and import."""

    def __init__(self, names: RepositoryNames, analyses: Iterable[FileAnalysis]) -> None:
        files = list(analyses)
        self.names = names
        self.by_name = _names_of_other_languages(files)
        self.choices = CandidatesByName(self.by_name, {analysis.path: analysis.language for analysis in files})
        self.imports = ImportTargets(files)
        self.bases = _bases_of_other_languages(files)
        # Modules a file includes at its top (Ruby's ``include Jekyll``): their constants are everyone's.
        mixins: dict[str, set[str]] = {}
        for analysis in files:
            if analysis.language != "python" and analysis.facts is not None:
                for reference in analysis.facts.references:
                    if reference.kind == "inherits" and reference.scope == analysis.facts.module:
                        mixins.setdefault(name_space(analysis.language), set()).add(reference.raw)
        self.top_level_mixins = {language: frozenset(names) for language, names in mixins.items()}

    def named_handler(self, language: str, written: str, path: str = "", imported: frozenset[str] = frozenset()) -> str | None:
        """The definition a route's handler names when the route's file does not define it, if the
        repository's files of the language have exactly one such:

        - a class and its method (Laravel's ``[UserController::class, 'index']`` and ``'UserController@store'``,
          Slim's ``'HomeController:home'``, Rails' ``articles#show`` of ``ArticlesController``): that method; a
          module and its function where the language writes ``::`` (Rust's ``parts::get_part``, ``handlers::parts::get_part``):
          that function; of several, the one of the class the route's file imports (``imported``: PHP's ``use``),
          else the ones nearest ``path``;
        - a class alone (Laravel's invokable ``PlayController::class``, a Slim action): its ``__invoke``, else
          the class (a gRPC service's implementation);
        - a name bare, where the language's bare names reach the whole package (Go's ``router.GET("/",
          index)`` with ``index`` in another file of the folder of ``path``): the function there;
        - a module and a name (Express's ``user.list`` with ``user = require('./user')``): the function of
          that name in a module of that name;
        - a class's whole name and its method (Play's ``controllers.HomeController.index``): that method.
        """
        written = written.strip()
        spec = spec_named(language)
        language = name_space(language)
        if language == "ruby" and _ACTION_KEY.fullmatch(written):
            # Hanami's ``to: "books.index"``: the ``handle`` of the action in ``actions/books/index.rb`` (an app's or a slice's).
            tail = "actions/" + written.replace(".", "/") + ".rb"
            found = {s.qname for s in self.by_name.get((language, "handle"), ()) if s.path.endswith(tail)}
        elif (rails := _CONTROLLER_ACTION.fullmatch(written)) is not None:
            controller = "".join(part.capitalize() for part in rails.group(1).rsplit("/", 1)[-1].split("_"))
            methods = self._methods(language, rails.group(2), controller + "Controller")
            # Rails loads ``admin/photos`` from ``app/controllers/admin/photos_controller.rb``: of several, that file's.
            conventional = [s for s in methods if s.path.endswith(f"controllers/{rails.group(1)}_controller.rb")]
            found = {s.qname for s in conventional or methods}
        elif (named := _ALIAS_AND_FUNCTION.fullmatch(written) or _CLASS_AND_METHOD.fullmatch(written) or _MODULE_PATH.fullmatch(written)) is not None:
            owner = named.group(1).rsplit("\\", 1)[-1].rsplit("::", 1)[-1].rsplit(".", 1)[-1]
            methods = self._methods(language, named.group(2), owner)
            if not methods and "::" in written:
                # A module's function (Rust's ``parts::get_part``: ``src/handlers/parts.rs`` or ``parts/mod.rs``).
                methods = [
                    s for s in self.by_name.get((language, named.group(2)), ())
                    if s.kind == "function" and s.parent is None and s.module.removesuffix(".mod").rsplit(".", 1)[-1] == owner
                ]
            # Of several (one per application of a repository), the one of the class the file imports, else the
            # ones nearest the file that names them.
            methods = [s for s in methods if s.parent in imported] or methods
            nearest = max((shared_folders(s.path, path) for s in methods), default=0)
            found = {s.qname for s in methods if shared_folders(s.path, path) == nearest}
        elif _NAME.fullmatch(written):
            found = {s.qname for s in self._methods(language, "__invoke", written)}
            if not found and spec is not None and spec.bare_calls == "package":
                found = {
                    s.qname for s in self.by_name.get((language, written), ())
                    if s.kind == "function" and posixpath.dirname(s.path) == posixpath.dirname(path)
                }
            if not found:
                # A class that is no invokable (the implementation of a gRPC service: ``MapGrpcService<BasketService>()``);
                # of several, the one nearest the file that names it (``src/Basket.API/``, not another project's).
                classes = [s for s in self.by_name.get((language, written), ()) if s.kind == "class"]
                nearest = max((shared_folders(s.path, path) for s in classes), default=0)
                found = {s.qname for s in classes if shared_folders(s.path, path) == nearest}
        elif (dotted := _MODULE_AND_NAME.fullmatch(written)) is not None:
            module, name = dotted.groups()
            found = {
                s.qname for s in self.by_name.get((language, name), ())
                if s.kind == "function" and s.parent is None and s.module.rsplit(".", 1)[-1] == module
            }
        elif (qualified := _QUALIFIED_METHOD.fullmatch(written)) is not None:
            owner, method = qualified.groups()
            found = {s.qname for s in self._methods(language, method, owner.rsplit(".", 1)[-1]) if s.parent == owner}
        else:
            return None
        return found.pop() if len(found) == 1 else None

    def named_class(self, language: str, written: str) -> str | None:
        """The class a whole name is (an Android manifest's ``com.example.app.MainActivity``), or, written with
        a leading dot (relative to a package the file does not give: ``.ui.MainActivity``), the one class whose
        whole name ends so."""
        last = written.rsplit(".", 1)[-1]
        classes = [s.qname for s in self.by_name.get((name_space(language), last), ()) if s.kind == "class"]
        found = {qname for qname in classes if qname.endswith(written)} if written.startswith(".") else {written} & set(classes)
        return found.pop() if len(found) == 1 else None

    def module_function(self, written: str) -> str | None:
        """The function a serverless configuration names by its module's path and its name (``svc/handler.hello``:
        ``hello`` at the top of ``svc/handler.py``, ``.js``, ``.ts`` ...), when the repository has one such."""
        found = self._module_functions.get(written, ())
        return found[0] if len(found) == 1 else None

    @cached_property
    def _module_functions(self) -> dict[str, list[str]]:
        """The qnames of the functions at the top of each file, by its path without its suffix and their name."""
        found: dict[str, list[str]] = {}
        for symbol in self.names.symbols.values():
            if symbol.kind == "function" and symbol.parent is None:
                found.setdefault(f"{symbol.path.rsplit('.', 1)[0]}.{symbol.name}", []).append(symbol.qname)
        return found

    def _methods(self, language: str, method: str, owner: str) -> list[Symbol]:
        """The methods named ``method`` of the classes named ``owner`` (their last part), in the name space
        ``language``."""
        return [
            s for s in self.by_name.get((language, method), ())
            if s.kind == "method" and s.parent is not None and s.parent.rsplit(".", 1)[-1] == owner
        ]

    def of(self, analysis: FileAnalysis) -> list[Edge]:
        if analysis.language == "python":
            return _dependency_edges(self.names, analysis)
        return _named_edges(self.by_name, self.choices, self.imports, analysis, self.bases, self.top_level_mixins)
