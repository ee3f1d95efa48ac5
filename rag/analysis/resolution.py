"""The repository pass: C2 edges and C3 entrypoints from every file's facts together.

Names are resolved the way Python would find them, without running anything:
a scope's own imports, then the module's definitions and imports, then star
imports; dotted paths walk packages, re-exports in ``__init__`` modules and
class members (inherited ones included). ``self.x``/``cls.x`` look in the
enclosing class and its bases, ``super().x`` in the bases only, and a local
variable built by ``Class(...)`` or annotated with a class has that class.

Destinations are symbol qnames, or module names for imports of modules, or
``module.name`` for imports of module-level variables (apps, routers).
Anything that does not resolve inside the repository keeps its raw text with
resolution ``partial``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import replace

from rag.analysis.facts import (
    ArgparseCommand,
    DecoratorCall,
    FileFacts,
    Instance,
    Reference,
    RouteRegistration,
    UrlPattern,
)
from rag.analysis.languages import spec_named, unit_name
from rag.analysis.python_source import BUILTIN_NAMES
from rag.analysis.records import Edge, Entrypoint, FileAnalysis, RepositoryAnalysis, Symbol

MAX_DEPTH = 12
HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
ROUTE_DECORATORS = frozenset({"route", "api_route", "websocket", *HTTP_VERBS})
INSTANCE_FRAMEWORKS = {
    "Flask": "flask",
    "Blueprint": "flask",
    "FastAPI": "fastapi",
    "APIRouter": "fastapi",
    "Typer": "typer",
    "Celery": "celery",
}
DJANGO_METHOD_DECORATORS = {
    "require_GET": ("GET",),
    "require_POST": ("POST",),
    "require_safe": ("GET", "HEAD"),
}
CLICK_NAME_SUFFIXES = ("_command", "_cmd", "_group", "_grp")

Located = tuple[str, str]
"""(kind, qname) with kind ``symbol``, ``module`` or ``variable``."""


def click_command_name(function_name: str) -> str:
    """The name click 8.2 gives a command made from ``function_name``."""
    name = function_name
    for suffix in CLICK_NAME_SUFFIXES:
        if name.endswith(suffix) and name != suffix:
            name = name[: -len(suffix)]
            break
    return name.lower().replace("_", "-")


def join_route(*pieces: str) -> str:
    route = ""
    for piece in pieces:
        if piece:
            route = route.rstrip("/") + "/" + piece.lstrip("/")
    return route or "/"


class RepositoryNames:
    """Symbol, module and import tables of a whole repository, and name resolution over them."""

    def __init__(self, analyses: Iterable[FileAnalysis]) -> None:
        self.modules: dict[str, FileFacts] = {}
        self.module_paths: dict[str, str] = {}
        self.symbols: dict[str, Symbol] = {}
        self.top_level: dict[str, frozenset[str]] = {}
        self.scope_imports: dict[str, dict[str, str]] = {}
        self.stars: dict[str, list[str]] = {}
        self.instances: dict[str, Instance] = {}
        self.bases: dict[str, list[str]] = {}
        self.attribute_types: dict[tuple[str, str], tuple[str, str]] = {}
        self.cache: dict[str, Located | None] = {}
        ordered = sorted(analyses, key=lambda analysis: (analysis.path.endswith(".pyi"), analysis.path))
        for analysis in ordered:
            facts = analysis.facts
            if facts is None or facts.module is None or facts.module in self.modules:
                continue
            module = facts.module
            self.modules[module] = facts
            self.module_paths[module] = analysis.path
            self.top_level[module] = frozenset(facts.top_level)
            for symbol in analysis.symbols:
                self.symbols.setdefault(symbol.qname, symbol)
            for binding in facts.imports:
                if binding.is_star:
                    if binding.scope == module:
                        self.stars.setdefault(module, []).append(binding.target)
                elif binding.name:
                    self.scope_imports.setdefault(binding.scope, {})[binding.name] = binding.target
            for instance in facts.instances:
                self.instances.setdefault(f"{module}.{instance.name}", instance)
            for attribute in facts.attribute_types:
                key = (attribute.class_qname, attribute.attribute)
                self.attribute_types.setdefault(key, (attribute.type_name, attribute.scope))
        self.packages = frozenset(module.split(".", 1)[0] for module in self.modules)
        self.suffixes: dict[str, str | None] = {}
        for module in self.modules:
            parts = module.split(".")
            for start in range(1, len(parts)):
                suffix = ".".join(parts[start:])
                if suffix not in self.modules:
                    self.suffixes[suffix] = None if suffix in self.suffixes else module
        # A root ``__init__.py`` means the repository is one package whose own name is not in any path.
        self.root_is_package = "__init__.py" in self.module_paths.values()

    # -- locating dotted names ------------------------------------------------

    def locate(self, dotted: str, depth: int = 0) -> Located | None:
        if dotted in self.cache:
            return self.cache[dotted]
        self.cache[dotted] = None  # guards import cycles while resolving
        found = self._locate(dotted, depth)
        self.cache[dotted] = found
        return found

    def _locate(self, dotted: str, depth: int) -> Located | None:
        if depth > MAX_DEPTH:
            return None
        if dotted in self.symbols:
            return ("symbol", dotted)
        if dotted in self.modules:
            return ("module", dotted)
        parts = dotted.split(".")
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            if module not in self.modules:
                continue
            head, rest = parts[cut], parts[cut + 1 :]
            qname = f"{module}.{head}"
            if qname in self.symbols:
                return self._member_path(qname, rest)
            target = self.scope_imports.get(module, {}).get(head)
            if target is not None:
                return self.locate(".".join([target, *rest]), depth + 1)
            if head in self.top_level[module]:
                return ("variable", qname) if not rest else None
            for star in self.stars.get(module, ()):
                found = self.locate(".".join([star, *parts[cut:]]), depth + 1)
                if found is not None:
                    return found
            return None
        alias = self._alias(parts)
        return self.locate(alias, depth + 1) if alias is not None else None

    def _alias(self, parts: list[str]) -> str | None:
        """The repository's own name for a module imported under a longer or shorter package path."""
        if parts[0] in self.packages:
            return None
        for cut in range(len(parts), 0, -1):
            module = self.suffixes.get(".".join(parts[:cut]))
            if module is not None:
                return ".".join([module, *parts[cut:]])
        if self.root_is_package and len(parts) > 1 and parts[1] in self.packages:
            return ".".join(parts[1:])
        return None

    def _member_path(self, qname: str, rest: list[str]) -> Located | None:
        for name in rest:
            member = self.find_member(qname, name) if self.symbols[qname].kind == "class" else None
            if member is None:
                return None
            qname = member
        return ("symbol", qname)

    def find_member(self, class_qname: str, name: str, seen: frozenset[str] = frozenset()) -> str | None:
        """``Class.name`` defined on the class or inherited from a base inside the repository."""
        qname = f"{class_qname}.{name}"
        if qname in self.symbols:
            return qname
        for base in self.bases.get(class_qname, ()):
            if base not in seen and len(seen) < MAX_DEPTH:
                found = self.find_member(base, name, seen | {class_qname})
                if found is not None:
                    return found
        return None

    # -- names in a scope -------------------------------------------------------

    def absolute(self, name: str, scope: str, module: str) -> str | None:
        """What a bare name means in ``scope`` of ``module``, as an absolute dotted path."""
        current = scope
        while True:
            target = self.scope_imports.get(current, {}).get(name)
            if target is not None:
                return target
            if current == module or "." not in current or not current.startswith(module):
                break
            current = current.rsplit(".", 1)[0]
        if name in self.top_level.get(module, ()) or f"{module}.{name}" in self.symbols:
            return f"{module}.{name}"
        for star in self.stars.get(module, ()):
            if self.locate(f"{star}.{name}") is not None:
                return f"{star}.{name}"
        return None

    def expand(self, dotted: str, scope: str, module: str) -> str:
        """``dotted`` with its first name replaced by what it means in the scope (unchanged if unknown)."""
        first, _, rest = dotted.partition(".")
        base = self.absolute(first, scope, module)
        if base is None:
            return dotted
        return f"{base}.{rest}" if rest else base

    def resolve(self, raw: str, scope: str, module: str, class_scope: str | None, receiver_type: str = "") -> str | None:
        """The symbol qname a reference written in ``scope`` points to, or None."""
        parts = raw.split(".")
        first = parts[0]
        if first == "super()":
            if class_scope and len(parts) == 2:
                for base in self.bases.get(class_scope, ()):
                    found = self.find_member(base, parts[1])
                    if found is not None:
                        return found
            return None
        if first in ("self", "cls") and class_scope:
            if len(parts) == 1:  # ``self()``: calling the instance
                return None
            if len(parts) == 2:
                return self.find_member(class_scope, parts[1])
            attribute_class = self.attribute_class(class_scope, parts[1])
            if attribute_class is None:
                return None
            found = self._member_path(attribute_class, parts[2:])
            return found[1] if found is not None else None
        if receiver_type and len(parts) > 1:
            located = self.located_symbol(self.expand(receiver_type, scope, module))
            if located is None or self.symbols[located].kind != "class":
                return None
            found = self._member_path(located, parts[1:])
            return found[1] if found is not None else None
        base = self.absolute(first, scope, module)
        if base is None:
            return None
        return self.located_symbol(".".join([base, *parts[1:]]))

    def attribute_class(self, class_qname: str, attribute: str, seen: frozenset[str] = frozenset()) -> str | None:
        """The class of ``self.attribute`` as assigned or annotated in the class or a base class."""
        known = self.attribute_types.get((class_qname, attribute))
        if known is not None:
            type_name, scope = known
            module = self.symbols[class_qname].module if class_qname in self.symbols else scope
            located = self.located_symbol(self.expand(type_name, scope, module))
            return located if located is not None and self.symbols[located].kind == "class" else None
        for base in self.bases.get(class_qname, ()):
            if base not in seen and len(seen) < MAX_DEPTH:
                found = self.attribute_class(base, attribute, seen | {class_qname})
                if found is not None:
                    return found
        return None

    def located_symbol(self, dotted: str) -> str | None:
        found = self.locate(dotted)
        return found[1] if found is not None and found[0] == "symbol" else None

    def resolve_inheritance(self, references: Iterable[tuple[str, Reference]]) -> None:
        for module, reference in references:
            if reference.kind != "inherits":
                continue
            base = self.resolve(reference.raw, module, module, reference.class_scope)
            if base is not None and base != reference.scope:
                self.bases.setdefault(reference.scope, []).append(base)
        self.cache.clear()


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
    """The symbols of every language read with tree-sitter, by (language, short name)."""
    found: dict[tuple[str, str], list[Symbol]] = {}
    for analysis in analyses:
        if analysis.language != "python":
            for symbol in analysis.symbols:
                found.setdefault((analysis.language, symbol.name), []).append(symbol)
    return found


# What an ES module specifier or a C include may leave out of the file's path.
_IMPORT_SUFFIXES = ("", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", "/index.ts", "/index.tsx", "/index.js", ".h", ".hpp")


class ImportTargets:
    """Where the imports of the tree-sitter languages lead inside the repository, as the module
    systems allow: a file by path (ES modules, C includes), a package folder by its import path
    (Go: below the go.mod whose module path starts it), a symbol by qualified name (Java, Kotlin),
    a module file or an item of it by the crate's module tree (Rust ``use``)."""

    def __init__(self, analyses: Iterable[FileAnalysis]) -> None:
        analyses = list(analyses)
        # Keyed by language where names could meet across languages (com.shop.Cart in Java and Kotlin).
        self.units: dict[str, str] = {}
        self.folders: dict[tuple[str, str], str] = {}
        self.by_basename: dict[str, list[str]] = {}
        self.qnames: set[tuple[str, str]] = set()
        self.by_tail: dict[tuple[str, str], list[str]] = {}
        self.systems: dict[str, str] = {}
        # Manifests by folder: Cargo.toml crate names (None for a workspace without a package), go.mod module paths.
        self.cargo: dict[str, str | None] = {}
        self.go_modules: dict[str, str] = {}
        # Rust modules written inline (``mod tests { ... }``): a ``use`` inside one is relative to it.
        self.inline_modules: set[str] = set()
        for analysis in analyses:
            name = posixpath.basename(analysis.path)
            manifest = analysis.facts.manifest_name if analysis.facts is not None else None
            if name == "Cargo.toml":
                self.cargo[posixpath.dirname(analysis.path)] = manifest
            elif name == "go.mod" and manifest:
                self.go_modules[manifest] = posixpath.dirname(analysis.path)
            if analysis.language == "python":
                continue
            spec = spec_named(analysis.language)
            if spec is None or (not analysis.symbols and spec.unit == "package"):
                continue
            language = analysis.language
            self.systems[language] = spec.module_system
            unit = analysis.symbols[0].module if analysis.symbols else unit_name(analysis.path, spec)
            self.units[analysis.path] = unit
            self.folders.setdefault((language, posixpath.dirname(analysis.path)), unit)
            self.by_basename.setdefault(name, []).append(analysis.path)
            for symbol in analysis.symbols:
                self.qnames.add((language, symbol.qname))
                if spec.module_system == "cargo" and _RUST_MODULE.match(symbol.signature):
                    self.inline_modules.add(symbol.qname)
                self.by_tail.setdefault((language, ".".join(symbol.qname.split(".")[-2:])), []).append(symbol.qname)
        self.crates = {crate: folder for folder, crate in self.cargo.items() if crate}
        # The paths each Rust file's top-level uses bring in, by the name they end with.
        self.rust_uses: dict[str, dict[str, list[str]]] = {}
        for analysis in analyses:
            if self.systems.get(analysis.language) == "cargo" and analysis.facts is not None:
                for reference in analysis.facts.references:
                    if reference.kind == "imports" and reference.scope == self.units.get(analysis.path):
                        name = reference.raw.rsplit("::", 1)[-1]
                        if name not in ("*", "self", "crate", "super"):
                            self.rust_uses.setdefault(analysis.path, {}).setdefault(name, []).append(reference.raw)

    def target(self, raw: str, importer: FileAnalysis, scope: str = "") -> str | None:
        language = importer.language
        system = self.systems.get(language, "")
        if system == "cargo":
            return self._rust(raw, importer.path, scope)
        if system == "go" and self.go_modules:
            return self._go(raw, language)
        dotted = raw.replace("::", ".").removeprefix("crate.").removeprefix("self.")
        if (language, dotted) in self.qnames:
            return dotted
        folder = posixpath.dirname(importer.path)
        if raw.startswith(".") or raw.endswith((".h", ".hpp", ".hh")):
            base = posixpath.normpath(posixpath.join(folder, raw))
            for suffix in _IMPORT_SUFFIXES:
                if base + suffix in self.units:
                    return self.units[base + suffix]
            ending = [path for path in self.by_basename.get(posixpath.basename(raw), ()) if path.endswith("/" + raw) or path == raw]
            return self.units[ending[0]] if len(ending) == 1 else None
        if "/" in raw:
            # A Go import path without a go.mod in the tree ends with the package's folder in the
            # repository (the module path comes first): the longest such ending wins.
            parts = raw.split("/")
            for start in range(len(parts)):
                candidate = (language, "/".join(parts[start:]))
                if candidate in self.folders:
                    return self.folders[candidate]
            return None
        tail = ".".join(dotted.split(".")[-2:])
        matches = [qname for qname in self.by_tail.get((language, tail), ()) if qname.endswith("." + dotted) or qname == dotted]
        return matches[0] if len(matches) == 1 else None

    # -- Go: module paths ---------------------------------------------------------

    def _go(self, raw: str, language: str) -> str | None:
        """The package folder of an import path under the module path of one of the tree's go.mod
        files (the longest such module path); the standard library and other modules stay partial."""
        owners = [module for module in self.go_modules if raw == module or raw.startswith(module + "/")]
        if not owners:
            return None
        module = max(owners, key=len)
        folder = posixpath.join(self.go_modules[module], raw[len(module) + 1 :]).strip("/") if raw != module else self.go_modules[module]
        return self.folders.get((language, posixpath.normpath(folder) if folder else ""))

    # -- Rust: crates and their module trees ----------------------------------------

    def _crate_of(self, path: str) -> tuple[str, tuple[str, ...], list[str]] | None:
        """(the folder module paths start from, the file's module path, the crate root files) of a
        Rust file: below ``src/`` of the nearest Cargo.toml (``lib.rs``/``main.rs`` are the root;
        every file directly in ``src/bin``, ``tests``, ``benches`` or ``examples`` is a root of its own),
        or below the nearest ``src`` folder when no Cargo.toml holds the file."""
        parts = path.split("/")
        found = None
        for index in range(len(parts) - 2, -1, -1):
            if parts[index] in _RUST_ROOTS and "/".join(parts[:index]) in self.cargo:
                found = index
                break
        if found is None:
            found = next((index for index in range(len(parts) - 2, -1, -1) if parts[index] == "src"), None)
        if found is None:
            # A crate whose Cargo.toml names its root file elsewhere (``[[bin]] path = "crates/core/main.rs"``):
            # the nearest folder holding a lib.rs or main.rs.
            for index in range(len(parts) - 1, 0, -1):
                folder = "/".join(parts[:index])
                if f"{folder}/lib.rs" in self.units or f"{folder}/main.rs" in self.units:
                    module = [*parts[index:-1], posixpath.splitext(parts[-1])[0]]
                    if module[-1] == "mod" or (len(module) == 1 and module[0] in ("lib", "main")):
                        module.pop()
                    return folder, tuple(module), [f"{folder}/lib.rs", f"{folder}/main.rs"]
            return None
        own_roots = parts[found] != "src" or (found + 2 < len(parts) and parts[found + 1] == "bin")
        if parts[found] == "src" and own_roots:
            found += 1  # src/bin
        root = "/".join(parts[: found + 1])
        module = [*parts[found + 1 : -1], posixpath.splitext(parts[-1])[0]]
        if own_roots and len(module) == 1:
            return root, (), [path]
        if own_roots and f"{root}/{module[0]}/main.rs" in self.units:
            # A root of its own in a folder (tests/filters/main.rs), with its modules beside it.
            root, module, own_roots = f"{root}/{module[0]}", module[1:], False
        if module[-1] == "mod" or (len(module) == 1 and module[0] in ("lib", "main")):
            module.pop()
        # A module below a folder of root files (tests/common/mod.rs) has no root of its own to name.
        return root, tuple(module), [] if own_roots else [f"{root}/lib.rs", f"{root}/main.rs"]

    def _module_files(self, root: str, module: tuple[str, ...], roots: list[str]) -> list[str]:
        if not module:
            return [path for path in roots if path in self.units]
        if len(module) == 1 and module[0] in ("lib", "main"):
            return []  # src/lib.rs and src/main.rs are roots, no modules
        base = posixpath.join(root, *module)
        return [path for path in (base + ".rs", base + "/mod.rs") if path in self.units]

    def _rust(self, raw: str, importer: str, scope: str = "", depth: int = 0) -> str | None:
        """A ``use`` path through the module tree: ``crate::``, ``self::``, ``super::``, a module in
        scope, or a crate of the same repository by its name; then the item defined in the module
        file it reaches, or what that file's own ``use`` of the name leads to (a re-export), else that
        file (a glob, a name of a library)."""
        segments = [segment for segment in raw.removeprefix("::").split("::") if segment]
        if not segments or segments[0] in _RUST_LIBRARIES:
            return None
        place = self._crate_of(importer)
        if place is None and segments[0] not in self.crates:
            return None
        # A file in no crate's module tree (a fuzz target) can still use the repository's crates.
        root, module, roots = place or ("", (), [])
        own = self.units[importer]
        # The inline modules around the use (``mod tests { use super::*; }``), outermost first.
        inline: list[str] = []
        if scope.startswith(own + "."):
            names = scope[len(own) + 1 :].split(".")
            inline = [name for cut, name in enumerate(names, 1) if ".".join([own, *names[:cut]]) in self.inline_modules]
            inline = names[: len(inline)] if inline == names[: len(inline)] else []
        first = segments[0]
        local = place is not None
        if local and first in ("crate", "$crate"):
            module, inline, segments = (), [], segments[1:]
        elif local and first in ("self", "super"):
            while segments and segments[0] in ("self", "super"):
                if segments.pop(0) == "super":
                    if inline:
                        inline.pop()
                    elif module:
                        module = module[:-1]
                    else:
                        return None
        elif local and inline and ("rust", ".".join([own, *inline, first])) in self.qnames:
            pass  # an item or module of the inline module itself
        elif local and (self._module_files(root, (*module, first), roots) or ("rust", f"{own}.{first}") in self.qnames):
            inline = []  # a module or an item in scope of the file's own module (Rust 2018 paths)
        elif first in self.crates:
            root, module, inline, segments = posixpath.join(self.crates[first], "src"), (), [], segments[1:]
            roots = [f"{root}/lib.rs"]
        else:
            return None
        while not inline and segments and self._module_files(root, (*module, segments[0]), roots):
            module, segments = (*module, segments[0]), segments[1:]
        files = self._module_files(root, module, roots)
        if not files:
            return None
        item = [segment for segment in segments if segment not in ("*", "self")]
        for path in files:
            unit = ".".join([self.units[path], *inline]) if path == importer else self.units[path]
            for cut in range(len(item), 0, -1):
                qname = ".".join([unit, *item[:cut]])
                if ("rust", qname) in self.qnames:
                    return qname
        if inline and importer in files:
            return ".".join([own, *inline])
        if item and depth < MAX_DEPTH:
            for path in files:
                for written in self.rust_uses.get(path, {}).get(item[0], ()):
                    found = self._rust("::".join([written, *item[1:]]), path, depth=depth + 1)
                    if found is not None:
                        return found
        return self.units[files[0]]


# A Rust module's signature (``mod tests``, ``pub(crate) mod imp``).
_RUST_MODULE = re.compile(r"(pub(\([^)]*\))?\s+)?mod\s")
# Where a Rust crate's root files are, below the folder of its Cargo.toml.
_RUST_ROOTS = ("src", "tests", "benches", "examples")
# Crates of the toolchain: always libraries.
_RUST_LIBRARIES = frozenset({"std", "core", "alloc", "proc_macro", "test"})


def _named_edges(by_name: dict[tuple[str, str], list[Symbol]], imports: ImportTargets, analysis: FileAnalysis) -> list[Edge]:
    """Calls and type references of a tree-sitter language, resolved by name as code navigation does.

    A name resolves to the symbol of that name in the same file, else in the
    same folder (a Go package, a Java package's directory), else to the only
    symbol of that name in the repository's files of the language; anything
    else stays ``partial`` with the name kept.
    """
    facts = analysis.facts
    if facts is None:
        return []
    folder = posixpath.dirname(analysis.path)
    edges: list[Edge] = []
    for reference in facts.references:
        if reference.kind == "imports":
            target = imports.target(reference.raw, analysis, reference.scope)
            edges.append(_edge("imports", reference.scope, reference.raw, target, analysis, reference.line))
            continue
        candidates = [s for s in by_name.get((analysis.language, reference.raw), ()) if s.qname != reference.scope]
        if reference.kind == "inherits":
            candidates = [s for s in candidates if s.kind == "class"]
        chosen = (
            [s for s in candidates if s.path == analysis.path]
            or [s for s in candidates if posixpath.dirname(s.path) == folder]
            or candidates
        )
        dst = chosen[0].qname if len(chosen) == 1 else None
        edges.append(_edge(reference.kind, reference.scope, reference.raw, dst, analysis, reference.line))
    return edges


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


class EntrypointFinder:
    """C3 entrypoints of every file, resolved against the whole repository."""

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
                child = self._target(mount.child, mount.scope, facts.module)
                parent = self._target(mount.parent, mount.scope, facts.module)
                if child is not None:
                    self.mounts.setdefault(child, []).append((mount.method, mount.prefix, parent or ""))

    def run(self) -> dict[str, list[Entrypoint]]:
        for analysis in self.analyses.values():
            facts = analysis.facts
            if facts is None:
                continue
            for script in facts.console_scripts:
                self._console_script(analysis, script.name, script.target, script.line, script.group)
            if facts.module is None:
                continue
            for qname, calls in facts.decorators:
                for call in calls:
                    self._decorated(analysis, facts, qname, call)
            for registration in facts.route_registrations:
                self._registered_route(analysis, facts, registration)
            for command in facts.argparse_commands:
                self._argparse(analysis, facts.module, command)
            if facts.management_command:
                self._management_command(analysis, facts.module, facts.management_command)
        self._django_urls()
        for entries in self.found.values():
            entries.sort(key=lambda entry: (entry.start_line, entry.route_or_command))
        return self.found

    def _add(self, path: str, entry: Entrypoint) -> None:
        self.found[path].append(entry)

    def _target(self, dotted: str, scope: str, module: str) -> str | None:
        found = self.names.locate(self.names.expand(dotted, scope, module))
        return found[1] if found is not None else None

    # -- decorators: Flask, FastAPI, click, typer, Celery -----------------------

    def _framework(self, receiver: str, scope: str, module: str, facts: FileFacts) -> tuple[str, str | None]:
        """The framework behind a decorator's receiver and the receiver's qname when it is ours."""
        expanded = self.names.expand(receiver, scope, module)
        found = self.names.locate(expanded)
        if found is not None and found[0] == "variable" and found[1] in self.names.instances:
            instance = self.names.instances[found[1]]
            owner = found[1].rsplit(".", 1)[0]
            callee = self.names.expand(instance.callee, owner, owner)
            return INSTANCE_FRAMEWORKS.get(callee.rsplit(".", 1)[-1], "unknown"), found[1]
        if found is not None and found[0] == "symbol" and self._is_click_group(found[1]):
            return "click_group", found[1]
        head = expanded.split(".", 1)[0]
        if head in ("click", "typer", "flask", "fastapi", "celery"):
            return head, None
        imported = {binding.target.split(".", 1)[0] for binding in facts.imports}
        for framework in ("fastapi", "flask", "typer", "click", "celery"):
            if framework in imported:
                return framework, None
        return "unknown", None

    def _is_click_group(self, qname: str) -> bool:
        module, calls = self.decorators.get(qname, ("", ()))
        return any(call.target.rsplit(".", 1)[-1] == "group" for call in calls)

    def _decorated(self, analysis: FileAnalysis, facts: FileFacts, qname: str, call: DecoratorCall) -> None:
        module = facts.module or ""
        receiver, _, attr = call.target.rpartition(".")
        symbol = self.names.symbols.get(qname)
        if symbol is None:
            return
        if attr == "shared_task" or (not receiver and attr == "task"):
            if self.names.expand(call.target, call.scope, module).split(".", 1)[0] == "celery" or attr == "shared_task":
                self._task(analysis, symbol, call)
            return
        if not receiver or attr not in (*ROUTE_DECORATORS, "command", "group", "task"):
            return
        if attr == "command" and receiver.endswith(".cli") and self._flask_cli(analysis, facts, symbol, call):
            return
        framework, receiver_qname = self._framework(receiver, call.scope, module, facts)
        if attr in ROUTE_DECORATORS and framework in ("flask", "fastapi"):
            self._route(analysis, symbol, call, attr, framework, receiver_qname)
        elif attr in ("command", "group") and framework in ("click", "click_group"):
            name = self._click_name(symbol, call)
            self._cli(analysis, symbol, "click", name, call)
        elif attr == "command" and framework == "typer":
            name = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
            if not isinstance(name, str):
                name = symbol.name.lower().replace("_", "-")
            prefix = self._typer_prefix(receiver_qname)
            self._cli(analysis, symbol, "typer", f"{prefix} {name}".strip(), call)
        elif attr == "task" and framework == "celery":
            self._task(analysis, symbol, call)

    def _flask_cli(self, analysis: FileAnalysis, facts: FileFacts, symbol: Symbol, call: DecoratorCall) -> bool:
        """``@app.cli.command()`` -> ``flask NAME``; on a blueprint ``flask BLUEPRINT NAME``."""
        owner = call.target.rpartition(".")[0].removesuffix(".cli")
        framework, owner_qname = self._framework(owner, call.scope, facts.module or "", facts)
        if framework != "flask":
            return False
        group = ""
        instance = self.names.instances.get(owner_qname or "")
        if instance is not None and instance.callee.rsplit(".", 1)[-1] == "Blueprint":
            given = instance.kwarg("cli_group", instance.args[0] if instance.args else None)
            group = given if isinstance(given, str) else ""
        name = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
        if not isinstance(name, str):
            name = click_command_name(symbol.name)
        self._cli(analysis, symbol, "flask", " ".join(part for part in ("flask", group, name) if part), call)
        return True

    def _route(
        self,
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
            methods = tuple(str(method).upper() for method in given) if isinstance(given, (list, tuple)) else ("GET",)
        prefixes = self._route_prefixes(receiver_qname, framework)
        for prefix in prefixes:
            self._add(
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

    def _registered_route(self, analysis: FileAnalysis, facts: FileFacts, registration: RouteRegistration) -> None:
        module = facts.module or ""
        framework, receiver_qname = self._framework(registration.receiver, registration.scope, module, facts)
        if framework not in ("flask", "fastapi"):
            framework = "flask" if registration.method == "add_url_rule" else "fastapi"
        handler = None
        if registration.view is not None:
            handler = self.names.resolve(registration.view, registration.scope, module, registration.class_scope)
        for prefix in self._route_prefixes(receiver_qname, framework):
            self._add(
                analysis.path,
                Entrypoint(
                    entry_type="http_route",
                    framework=framework,
                    route_or_command=join_route(prefix, registration.route),
                    handler=handler,
                    path=analysis.path,
                    start_line=registration.line,
                    end_line=registration.end_line,
                    methods=registration.methods or ("GET",),
                    handler_raw=registration.view or "",
                ),
            )

    def _route_prefixes(self, receiver_qname: str | None, framework: str) -> list[str]:
        """URL prefixes of a blueprint/router: its own, combined with every place it is mounted."""
        if receiver_qname is None or receiver_qname not in self.names.instances:
            return [""]
        instance = self.names.instances[receiver_qname]
        own = instance.kwarg("url_prefix") if framework == "flask" else instance.kwarg("prefix")
        own = own if isinstance(own, str) else ""
        mounts = [m for m in self.mounts.get(receiver_qname, ()) if m[0] in ("register_blueprint", "include_router")]
        if not mounts:
            return [own]
        prefixes = []
        for _, prefix, _ in mounts:
            if framework == "flask":  # register_blueprint(url_prefix=...) replaces the blueprint's own
                prefixes.append(prefix if prefix is not None else own)
            else:  # include_router(prefix=...) comes before the router's own
                prefixes.append(join_route(prefix or "", own) if prefix or own else "")
        return prefixes

    def _click_name(self, symbol: Symbol, call: DecoratorCall) -> str:
        """The command's full path: enclosing groups' names, then its own."""
        own = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
        if not isinstance(own, str):
            own = click_command_name(symbol.name)
        mounted = [m for m in self.mounts.get(symbol.qname, ()) if m[0] == "add_command"]
        if mounted:
            _, name, parent = mounted[0]
            parent_name = self._group_name(parent, set())
            return f"{parent_name} {name or own}".strip()
        receiver = call.target.rpartition(".")[0]
        module = symbol.module
        parent = self._target(receiver, call.scope, module) if receiver else None
        if parent is not None and self._is_click_group(parent):
            return f"{self._group_name(parent, set())} {own}".strip()
        return own

    def _group_name(self, qname: str, seen: set[str]) -> str:
        if qname in seen or qname not in self.names.symbols:
            return ""
        seen.add(qname)
        module, calls = self.decorators.get(qname, ("", ()))
        for call in calls:
            if call.target.rsplit(".", 1)[-1] in ("group", "command"):
                symbol = self.names.symbols[qname]
                own = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
                own = own if isinstance(own, str) else click_command_name(symbol.name)
                mounted = [m for m in self.mounts.get(qname, ()) if m[0] == "add_command"]
                if mounted:
                    return f"{self._group_name(mounted[0][2], seen)} {mounted[0][1] or own}".strip()
                receiver = call.target.rpartition(".")[0]
                parent = self._target(receiver, call.scope, module) if receiver else None
                if parent is not None and self._is_click_group(parent):
                    return f"{self._group_name(parent, seen)} {own}".strip()
                return own
        return ""

    def _typer_prefix(self, receiver_qname: str | None, seen: frozenset[str] = frozenset()) -> str:
        if receiver_qname is None or receiver_qname in seen:
            return ""
        mounted = [m for m in self.mounts.get(receiver_qname, ()) if m[0] == "add_typer"]
        if not mounted:
            return ""
        _, name, parent = mounted[0]
        if not name:
            instance = self.names.instances.get(receiver_qname)
            given = instance.kwarg("name") if instance is not None else None
            name = given if isinstance(given, str) else ""
        return f"{self._typer_prefix(parent, seen | {receiver_qname})} {name}".strip()

    def _cli(self, analysis: FileAnalysis, symbol: Symbol, framework: str, command: str, call: DecoratorCall) -> None:
        self._add(
            analysis.path,
            Entrypoint(
                entry_type="cli_command",
                framework=framework,
                route_or_command=command,
                handler=symbol.qname,
                path=analysis.path,
                start_line=symbol.start_line,
                end_line=symbol.end_line,
                handler_raw=symbol.qname,
            ),
        )

    def _task(self, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall) -> None:
        name = call.kwarg("name")
        self._add(
            analysis.path,
            Entrypoint(
                entry_type="task",
                framework="celery",
                route_or_command=name if isinstance(name, str) else symbol.qname,
                handler=symbol.qname,
                path=analysis.path,
                start_line=symbol.start_line,
                end_line=symbol.end_line,
                handler_raw=symbol.qname,
            ),
        )

    # -- argparse, management commands, console scripts ------------------------

    def _argparse(self, analysis: FileAnalysis, module: str, command: ArgparseCommand) -> None:
        if command.handler is not None:
            handler = self.names.resolve(command.handler, command.scope, module, command.class_scope)
            raw = command.handler
        else:
            handler = command.scope if command.scope in self.names.symbols else None
            raw = command.scope
        self._add(
            analysis.path,
            Entrypoint(
                entry_type="cli_command",
                framework="argparse",
                route_or_command=command.command,
                handler=handler,
                path=analysis.path,
                start_line=command.line,
                end_line=command.end_line,
                handler_raw=raw,
            ),
        )

    def _management_command(self, analysis: FileAnalysis, module: str, name: str) -> None:
        command_class = self.names.symbols.get(f"{module}.Command")
        if command_class is None:
            return
        handler = f"{module}.Command.handle"
        self._add(
            analysis.path,
            Entrypoint(
                entry_type="cli_command",
                framework="django",
                route_or_command=name,
                handler=handler if handler in self.names.symbols else command_class.qname,
                path=analysis.path,
                start_line=command_class.start_line,
                end_line=command_class.end_line,
                handler_raw=f"{module}.Command",
            ),
        )

    def _console_script(self, analysis: FileAnalysis, name: str, target: str, line: int, group: str) -> None:
        dotted = target.replace(":", ".")
        found = self.names.locate(dotted)
        self._add(
            analysis.path,
            Entrypoint(
                entry_type="cli_command",
                framework=group,
                route_or_command=name,
                handler=found[1] if found is not None and found[0] == "symbol" else None,
                path=analysis.path,
                start_line=line,
                end_line=line,
                handler_raw=target,
            ),
        )

    # -- Django URLconfs -------------------------------------------------------

    def _url_lists(self, module: str) -> dict[str, tuple[UrlPattern, ...]]:
        facts = self.names.modules.get(module)
        return dict(facts.url_lists) if facts is not None else {}

    def _include_target(self, pattern: UrlPattern, module: str) -> tuple[str, str] | None:
        """(module, list name) an ``include()`` leads to inside the repository."""
        if pattern.include is None:
            return None
        if pattern.include_is_module_string:
            found = self.names.locate(pattern.include)
        else:
            found = self.names.locate(self.names.expand(pattern.include, module, module))
        if found is None:
            return None
        kind, qname = found
        if kind == "module" and "urlpatterns" in self._url_lists(qname):
            return qname, "urlpatterns"
        if kind == "variable":
            owner, name = qname.rsplit(".", 1)
            if name in self._url_lists(owner):
                return owner, name
        return None

    def _django_urls(self) -> None:
        urlconfs = [module for module, facts in self.names.modules.items() if dict(facts.url_lists).get("urlpatterns")]
        included: set[str] = set()
        for module in urlconfs:
            for pattern in self._flatten(dict(self.names.modules[module].url_lists)["urlpatterns"]):
                target = self._include_target(pattern, module)
                if target is not None and target[1] == "urlpatterns":
                    included.add(target[0])
        for module in urlconfs:
            if module not in included:
                self._walk_urls(module, "urlpatterns", "", ((module, "urlpatterns"),))

    def _flatten(self, patterns: tuple[UrlPattern, ...]) -> Iterable[UrlPattern]:
        for pattern in patterns:
            yield pattern
            yield from self._flatten(pattern.children)

    def _walk_urls(self, module: str, list_name: str, prefix: str, trail: tuple[tuple[str, str], ...]) -> None:
        path = self.names.module_paths[module]
        for pattern in self._url_lists(module).get(list_name, ()):
            self._walk_pattern(module, path, pattern, prefix, trail)

    def _walk_pattern(
        self, module: str, path: str, pattern: UrlPattern, prefix: str, trail: tuple[tuple[str, str], ...]
    ) -> None:
        piece = pattern.route
        if pattern.function != "path":
            piece = piece.removeprefix("^").removesuffix("$")
        route = join_route(prefix, piece) if piece else (prefix or "/")
        if pattern.children:
            for child in pattern.children:
                self._walk_pattern(module, path, child, route, trail)
            return
        target = self._include_target(pattern, module) if pattern.include is not None else None
        if target is not None:
            if target not in trail and len(trail) < MAX_DEPTH:
                self._walk_urls(target[0], target[1], route, (*trail, target))
            return
        handler = None
        methods: tuple[str, ...] = ()
        raw = pattern.include or pattern.view or ""
        if pattern.view is not None:
            if "." in pattern.view and pattern.view.split(".", 1)[0] not in self.names.top_level.get(module, ()):
                handler = self.names.located_symbol(pattern.view)
            if handler is None:
                handler = self.names.resolve(pattern.view, module, module, None)
            if handler is not None:
                methods = self._view_methods(handler, pattern.is_class_view)
            if pattern.is_class_view:
                raw = f"{pattern.view}.as_view()"
        self._add(
            path,
            Entrypoint(
                entry_type="http_route",
                framework="django",
                route_or_command=route,
                handler=handler,
                path=path,
                start_line=pattern.line,
                end_line=pattern.end_line,
                methods=methods,
                handler_raw=raw,
            ),
        )

    def _view_methods(self, handler: str, is_class_view: bool) -> tuple[str, ...]:
        if is_class_view or self.names.symbols[handler].kind == "class":
            return tuple(
                verb.upper() for verb in HTTP_VERBS if self.names.find_member(handler, verb) is not None
            )
        _, calls = self.decorators.get(handler, ("", ()))
        for call in calls:
            name = call.target.rsplit(".", 1)[-1]
            if name in DJANGO_METHOD_DECORATORS:
                return DJANGO_METHOD_DECORATORS[name]
            if name == "require_http_methods" and call.args and isinstance(call.args[0], (list, tuple)):
                return tuple(str(method).upper() for method in call.args[0])
        return ()


def resolve_repository(analyses: dict[str, FileAnalysis], reused: frozenset[str] = frozenset()) -> RepositoryAnalysis:
    """Edges and entrypoints for every file; entry candidates marked on symbols."""
    names = RepositoryNames(analyses.values())
    names.resolve_inheritance(
        (analysis.facts.module, reference)
        for analysis in analyses.values()
        if analysis.facts is not None and analysis.facts.module is not None
        for reference in analysis.facts.references
    )
    by_name = _names_of_other_languages(analyses.values())
    imports = ImportTargets(analyses.values())
    entrypoints = EntrypointFinder(names, analyses).run()
    handlers = {entry.handler for entries in entrypoints.values() for entry in entries if entry.handler}
    handlers |= {handler.rsplit(".", 1)[0] for handler in handlers if handler.endswith(".Command.handle")}
    resolved: dict[str, FileAnalysis] = {}
    for path, analysis in analyses.items():
        candidates = handlers | (analysis.facts.entry_candidates if analysis.facts is not None else frozenset())
        symbols = [
            symbol
            if symbol.is_entry_candidate == (symbol.qname in candidates)
            else replace(symbol, is_entry_candidate=symbol.qname in candidates)
            for symbol in analysis.symbols
        ]
        resolved[path] = replace(
            analysis,
            symbols=symbols,
            edges=_dependency_edges(names, analysis) if analysis.language == "python" else _named_edges(by_name, imports, analysis),
            entrypoints=entrypoints.get(path, []) + list(analysis.facts.entrypoints if analysis.facts is not None else ()),
        )
    return RepositoryAnalysis(files=resolved, reused=reused)
