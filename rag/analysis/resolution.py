"""Name resolution across a repository, and C2 edges from every file's facts together.

Names are resolved the way Python would find them, without running anything:
a scope's own imports, then the module's definitions and imports, then star
imports; dotted paths walk packages, re-exports in ``__init__`` modules and
class members (inherited ones included). ``self.x``/``cls.x`` look in the
enclosing class and its bases, ``super().x`` in the bases only, and a local
variable built by ``Class(...)`` or annotated with a class has that class.

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
from dataclasses import dataclass
from functools import cached_property, lru_cache

from rag.analysis.facts import (
    RETURNED,
    SELF_RECEIVER,
    FileFacts,
    Instance,
    NamedImport,
    Reference,
)
from rag.analysis.languages.spec import NAMESPACE_SEPARATOR, LanguageSpec, name_space, spec_named, unit_name
from rag.analysis.python_source import BUILTIN_NAMES
from rag.analysis.candidates import (
    CandidatesByName,
    any_of,
    current_work,
    keyed,
    kept,
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
from rag.analysis.records import Edge, Symbol
from rag.analysis.results import FileAnalysis

# How far a chain is followed: re-exports and bases of a name, and routers or commands mounted in one
# another (no project nests near this deep; an upload may chain thousands).
MAX_DEPTH = 12
Located = tuple[str, str]
"""(kind, qname) with kind ``symbol``, ``module`` or ``variable``."""


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
    """The symbols of every language read with tree-sitter, by (its names' space: ``name_space``, short name)."""
    found: dict[tuple[str, str], list[Symbol]] = {}
    for analysis in analyses:
        if analysis.language != "python":
            for symbol in analysis.symbols:
                found.setdefault((name_space(analysis.language), symbol.name), []).append(symbol)
    return found


# What an ES module specifier or a C include may leave out of the file's path.
_IMPORT_SUFFIXES = (
    "", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".d.ts", ".vue", ".svelte", "/index.ts", "/index.tsx", "/index.js",
    "/index.d.ts", ".h", ".hpp",
)
# The aliases bundlers give a project's source folder unless told otherwise (Vue CLI, Vite's templates, Nuxt).
BUNDLER_ALIASES = ("@/", "~/")
# A C or C++ include names its file whole: a header, or a source file included into another (decNumber's
# ``#include "decCommon.c"``, a unity build's ``#include "format.cc"``).
_INCLUDED_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".c", ".cc", ".cpp", ".cxx")
# What a shell script writes for its own folder before a path: a variable (``$DIR/``, ``${SCRIPT_DIR}/``,
# ``${BASH_SOURCE%/*}/``) or ``$(dirname "$0")/`` and ``$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/``, quoted or not.
_SCRIPT_FOLDER = re.compile(r"""["']?(?:\$\w+|\$\{[^}]*\}|\$\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))["']?/""")


def _contains(folder: str, path: str) -> bool:
    """Whether ``path`` lies under ``folder`` (the repository's root, "", holds every path)."""
    return not folder or path.startswith(folder + "/")


def _path_pattern_match(pattern: str, specifier: str) -> str | None:
    """What a tsconfig path pattern's ``*`` stands for in ``specifier`` (``""`` for a pattern without one
    that is the specifier itself); None when the pattern does not match."""
    if "*" not in pattern:
        return "" if pattern == specifier else None
    prefix, suffix = pattern.split("*", 1)
    if len(specifier) >= len(prefix) + len(suffix) and specifier.startswith(prefix) and specifier.endswith(suffix):
        return specifier[len(prefix) : len(specifier) - len(suffix)]
    return None


# Of the modules an ES module passes on whole (``export * from``), those that pass modules on whole in turn
# followed for a name (real barrels pass on a few such; an upload may chain thousands).
MAX_DEEPER_STARS = 64


@dataclass
class _Exports:
    """What an ES module exports, as ``ImportTargets.exported`` reads it: the file, its bindings by the
    name they bind, the modules it passes on whole by each name they define or bind
    themselves, and those of them that pass modules on whole in turn."""

    analysis: FileAnalysis
    by_name: dict[str, list[NamedImport]]
    stars_by_name: dict[str, list[str]]
    deeper_stars: list[str]


class ImportTargets:
    """Where the imports of the tree-sitter languages lead inside the repository, as the module
    systems allow: a file by path (ES modules, C includes), a package folder by its import path
    (Go: below the go.mod whose module path starts it), a symbol or a package by qualified name (Java,
    Kotlin, C#'s ``using``, PHP's ``use``), a module file or an item of it by the crate's module tree (Rust
    ``use``), a file through the load path (Ruby's ``require``)."""

    def __init__(self, analyses: Iterable[FileAnalysis]) -> None:
        analyses = list(analyses)
        # Keyed by the languages' name spaces (``name_space``): where names meet across languages of one
        # space they are one name (com.shop.Cart of Java, imported by Kotlin).
        self.units: dict[str, str] = {}
        self.folders: dict[tuple[str, str], str] = {}
        self.by_basename: dict[str, list[str]] = {}
        self.qnames: set[tuple[str, str]] = set()
        # Packages and namespaces (Java's ``com.shop``, C#'s ``Shop.Core``): an import may name one.
        self.packages: set[tuple[str, str]] = set()
        self.by_tail: dict[tuple[str, str], list[str]] = {}
        self.systems: dict[str, str] = {}
        # Manifests by folder: Cargo.toml crate names (None for a workspace without a package), go.mod module paths.
        self.cargo: dict[str, str | None] = {}
        # A go.mod's module path -> the folders of the go.mod files that declare it (a repository of examples
        # declares ``module app`` in each).
        self.go_modules: dict[str, list[str]] = {}
        # Dart packages: the folder of the pubspec.yaml that gives each name (``package:shop/`` is its lib/).
        self.pub_packages: dict[str, str] = {}
        # ES modules: a workspace's packages by the name their package.json gives them, and the tsconfig
        # paths of each folder that has them (the folder, the pattern, the places it maps to).
        self.npm_packages: dict[str, str] = {}
        # The folders of every package.json, named or not (where a bundler's ``@/`` alias starts).
        self.package_folders: set[str] = set()
        self.module_paths: list[tuple[str, str, tuple[str, ...]]] = []
        self._folder_paths: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        # Rust modules written inline (``mod tests { ... }``): a ``use`` inside one is relative to it.
        self.inline_modules: set[str] = set()
        self._crate_roots: dict[str, str | None] = {}
        # ES modules by unit, and what each exports by a name (``exported``).
        self.es_modules: dict[str, FileAnalysis] = {}
        self._exported: dict[tuple[str, str], str | None] = {}
        self._exports: dict[str, _Exports | None] = {}
        for analysis in analyses:
            name = posixpath.basename(analysis.path)
            manifest = analysis.facts.manifest_name if analysis.facts is not None else None
            if name == "Cargo.toml":
                self.cargo[posixpath.dirname(analysis.path)] = manifest
            elif name == "go.mod" and manifest:
                self.go_modules.setdefault(manifest, []).append(posixpath.dirname(analysis.path))
            elif name == "package.json" and manifest:
                self.npm_packages.setdefault(manifest, posixpath.dirname(analysis.path))
            elif name == "pubspec.yaml" and manifest:
                self.pub_packages.setdefault(manifest, posixpath.dirname(analysis.path))
            if name == "package.json":
                self.package_folders.add(posixpath.dirname(analysis.path))
            if analysis.facts is not None:
                folder = posixpath.dirname(analysis.path)
                self.module_paths.extend((folder, pattern, places) for pattern, places in analysis.facts.module_paths)
            if analysis.language == "python":
                continue
            spec = spec_named(analysis.language)
            if spec is None or (not analysis.symbols and spec.unit == "package"):
                continue
            self.systems[analysis.language] = spec.module_system
            language = name_space(analysis.language)
            unit = analysis.symbols[0].module if analysis.symbols else unit_name(analysis.path, spec)
            self.units[analysis.path] = unit
            if spec.module_system == "es":
                self.es_modules.setdefault(unit, analysis)
            if spec.unit == "package":
                self.packages.add((language, unit))
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

    def exported(self, unit: str, member: str, depth: int = 0) -> str | None:
        """The symbol of the repository an ES module exports as ``member``: its own definition of that name,
        else what it imports or passes on by that name from another module (``export { x } from``), else
        what a module it passes on whole (``export * from``) exports by it; ``MAX_DEPTH`` modules deep,
        each module's name found once. The modules passed on whole are found through the names each
        defines or binds itself (``_Exports``): a barrel of thousands of ``export *`` is not read whole
        at each name asked of it."""
        key = (unit, member)
        if key in self._exported:
            return self._exported[key]
        self._exported[key] = None  # a cycle of modules passing names on finds nothing on its way round
        exports = self._exports_of(unit)
        if exports is None:
            return None
        space = name_space(exports.analysis.language)
        found = f"{unit}.{member}" if (space, f"{unit}.{member}") in self.qnames else None
        for binding in exports.by_name.get(member, ()):
            if found is not None or depth >= MAX_DEPTH:
                break
            if not binding.source:
                # The module's own definition, under the name it exports it by (``export default helper``).
                own = f"{unit}.{binding.member}"
                found = own if (space, own) in self.qnames else None
                continue
            source = self.target(binding.source, exports.analysis)
            if source is not None:
                # A module passed on whole under the name is that module (``export * as fmt from``).
                found = source if binding.member == "*" else self.exported(source, binding.member, depth + 1)
        # The modules passed on whole that define or bind the name themselves, then (a few) that pass
        # modules on whole in turn.
        for source in (*exports.stars_by_name.get(member, ()), *exports.deeper_stars[:MAX_DEEPER_STARS]):
            if found is not None or depth >= MAX_DEPTH:
                break
            found = self.exported(source, member, depth + 1)
        self._exported[key] = found
        return found

    def _exports_of(self, unit: str) -> _Exports | None:
        """An ES module's bindings by name and the modules it passes on whole, read once."""
        if unit in self._exports:
            return self._exports[unit]
        analysis = self.es_modules.get(unit)
        if analysis is None or analysis.facts is None:
            self._exports[unit] = None
            return None
        by_name: dict[str, list[NamedImport]] = {}
        star_sources: list[str] = []
        for binding in analysis.facts.named_imports:
            if binding.member != "*" or (binding.name != "*" and binding.reexport):
                # A name bound or passed on, or a module passed on whole under a name (``export * as fmt from``).
                by_name.setdefault(binding.name, []).append(binding)
            elif binding.name == "*" and (source := self.target(binding.source, analysis)) is not None:
                star_sources.append(source)
        exports = self._exports[unit] = _Exports(analysis, by_name, {}, [])
        for source in dict.fromkeys(star_sources):
            passed = self.es_modules.get(source)
            facts = passed.facts if passed is not None else None
            if facts is None:
                continue
            names = {s.name for s in passed.symbols if s.parent is None} | {
                b.name for b in facts.named_imports if b.member != "*" or (b.name != "*" and b.reexport)
            }
            for name in names:
                exports.stars_by_name.setdefault(name, []).append(source)
            if any(b.member == "*" and b.name == "*" for b in facts.named_imports):
                exports.deeper_stars.append(source)
        return exports

    def target(self, raw: str, importer: FileAnalysis, scope: str = "") -> str | None:
        system = self.systems.get(importer.language, "")
        language = name_space(importer.language)
        if system == "cargo":
            return self._rust(raw, importer.path, scope)
        if system == "go" and self.go_modules:
            return self._go(raw, language, importer.path)
        if system == "load_path":
            return self._load_path(raw, importer.path)
        if system == "pub":
            return self._pub(raw, importer.path)
        if system == "lua":
            return self._lua(raw)
        if system == "shell":
            return self._sourced(raw, importer.path)
        dotted = NAMESPACE_SEPARATOR.sub(".", raw.removeprefix("\\")).removeprefix("crate.").removeprefix("self.")
        spec = spec_named(importer.language)
        if spec is not None and spec.unnamed_scopes:
            dotted = ".".join(part for part in dotted.split(".") if part not in spec.unnamed_scopes)
        if (language, dotted) in self.qnames or (language, dotted) in self.packages:
            return dotted
        folder = posixpath.dirname(importer.path)
        if raw.startswith(".") or raw.endswith(_INCLUDED_SUFFIXES):
            found = self._module_file(posixpath.normpath(posixpath.join(folder, raw)))
            if found is not None:
                return found
            # An include is found in the include folders a build names (``-Iinclude``), which are near
            # the top: of several files that end with it (``include/simdjson.h`` and
            # ``include/simdjson/simdjson.h``), the one in the fewest folders.
            found = self._shallowest_ending(raw)
            return self.units[found] if found else None
        if system == "es":
            return self._bare_specifier(raw, importer.path)
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

    def _pub(self, raw: str, importer: str) -> str | None:
        """A Dart import: ``package:shop/src/cart.dart`` is ``src/cart.dart`` in the ``lib/`` folder of the package
        whose ``pubspec.yaml`` names it ``shop``; ``dart:async`` is the SDK's, any other URI a path from the
        importer's folder (``cart.dart``, ``../models/item.dart``)."""
        if raw.startswith("dart:"):
            return None
        if raw.startswith("package:"):
            name, _, rest = raw.removeprefix("package:").partition("/")
            folder = self.pub_packages.get(name)
            if folder is None:
                return None  # a package from pub.dev
            path = posixpath.join(folder, "lib", rest)
        else:
            path = posixpath.join(posixpath.dirname(importer), raw)
        return self.units.get(posixpath.normpath(path))

    def _lua(self, raw: str) -> str | None:
        """Lua's ``require("app.models.user")``: the file of the tree that ends ``app/models/user.lua``, else
        ``app/models/user/init.lua`` (``package.path``'s ``?.lua`` and ``?/init.lua``, whose folders are near the
        top: of several, the one in the fewest folders); the standard library's and rocks' modules stay partial."""
        wanted = raw.replace(".", "/")
        for name in (wanted + ".lua", wanted + "/init.lua"):
            if (found := self._shallowest_ending(name)) is not None:
                return self.units[found]
        return None

    def _sourced(self, raw: str, importer: str) -> str | None:
        """A script a shell script sources or runs: its path from the script's folder, which the script may
        write through where it lives (``"$DIR/lib/common.sh"``, ``${BASH_SOURCE%/*}/x.sh``, ``$(dirname "$0")/x.sh``),
        else the one file of the tree that ends with it, in the fewest folders; through any other expansion, none."""
        path = raw.strip("\"'")
        # Folders written through variables, one after the other (``$BATS_ROOT/$BATS_LIBDIR/bats-core/common.bash``):
        # what follows them names the file.
        while (lead := _SCRIPT_FOLDER.match(path)) is not None:
            path = path[lead.end() :]
        if "$" in path or "`" in path:
            return None
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(importer), path))
        if beside in self.units:
            return self.units[beside]
        tail = re.sub(r"^(?:\.\./)+", "", posixpath.normpath(path))
        found = self._shallowest_ending(tail) if not path.startswith("/") else None
        return self.units[found] if found else None

    def _shallowest_ending(self, name: str) -> str | None:
        """The path of the tree that is ``name`` or ends with ``/name`` in the fewest folders, if one does."""
        ending = [path for path in self.by_basename.get(posixpath.basename(name), ()) if path.endswith("/" + name) or path == name]
        depths = sorted((path.count("/"), path) for path in ending)
        if len(depths) == 1 or (len(depths) > 1 and depths[0][0] < depths[1][0]):
            return depths[0][1]
        return None

    def _module_file(self, base: str) -> str | None:
        """The unit of the file an ES specifier's path names, with the suffixes and ``index`` files it may leave out."""
        for suffix in _IMPORT_SUFFIXES:
            if base + suffix in self.units:
                return self.units[base + suffix]
        return None

    def _paths_above(self, folder: str) -> list[tuple[str, tuple[str, ...]]]:
        """The tsconfig path patterns that apply in ``folder``, in the order they are tried (the deepest
        tsconfig first, then the longest pattern); worked out once per folder."""
        known = self._folder_paths.get(folder)
        if known is None:
            applying = [entry for entry in self.module_paths if _contains(entry[0], folder + "/")]
            applying.sort(key=lambda entry: (-len(entry[0]), -len(entry[1])))
            known = self._folder_paths[folder] = [(pattern, places) for _, pattern, places in applying]
        return known

    def _bare_specifier(self, raw: str, importer: str) -> str | None:
        """An ES import by name (``@vue/shared``, ``@app/utils/format``): through the paths of the nearest
        tsconfig above the importer that maps it (the longest matching pattern first, as TypeScript
        picks), else a package of the repository's workspace by the name its package.json gives it: its
        ``src/index`` or ``index`` file, or the file a subpath names (``@acme/ui/button``). Packages from
        the registry stay partial."""
        for pattern, places in self._paths_above(posixpath.dirname(importer)):
            matched = _path_pattern_match(pattern, raw)
            if matched is None:
                continue
            for place in places:
                found = self._module_file(place.replace("*", matched))
                if found is not None:
                    return found
        name = raw
        while name:
            folder = self.npm_packages.get(name)
            if folder is not None:
                rest = raw[len(name) :].lstrip("/")
                root = posixpath.join(folder, rest) if rest else folder
                bases = [root] if rest else [posixpath.join(folder, "src/index"), posixpath.join(folder, "index")]
                if rest:
                    bases.append(posixpath.join(folder, "src", rest))
                for base in bases:
                    found = self._module_file(base.removeprefix("./"))
                    if found is not None:
                        return found
                return None
            name = name.rpartition("/")[0]
        if raw.startswith(BUNDLER_ALIASES):
            # The bundlers' own alias, where no tsconfig maps it: ``src/`` of the nearest package above the
            # importer (Vue CLI's and Vite templates' ``@/``, Nuxt's ``~/``), else that package's folder.
            rest = raw[2:]
            folder = posixpath.dirname(importer)
            while True:
                if folder in self.package_folders or not folder:
                    for base in (posixpath.join(folder, "src", rest), posixpath.join(folder, rest)):
                        found = self._module_file(base)
                        if found is not None:
                            return found
                    return None
                folder = posixpath.dirname(folder)
        return None

    def _load_path(self, raw: str, importer: str) -> str | None:
        """Ruby's ``require_relative`` (a path from the importer's folder) and ``require`` (a path that ends one
        file of the tree: the load path's folders, lib/ and the like, come first); gems stay partial."""
        wanted = raw if raw.endswith(".rb") else raw + ".rb"
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(importer), wanted))
        if beside in self.units:
            return self.units[beside]
        if raw.startswith("."):
            return None
        ending = [path for path in self.by_basename.get(posixpath.basename(wanted), ()) if path == wanted or path.endswith("/" + wanted)]
        # A gem's lib/ is on the load path: ``require "jekyll"`` is lib/jekyll.rb, not rubocop/jekyll.rb.
        on_load_path = [path for path in ending if path == "lib/" + wanted or path.endswith("/lib/" + wanted)]
        found = on_load_path if len(ending) > 1 and on_load_path else ending
        return self.units[found[0]] if len(found) == 1 else None

    # -- Go: module paths ---------------------------------------------------------

    def _go(self, raw: str, language: str, importer: str) -> str | None:
        """The package folder of an import path under the module path of one of the tree's go.mod
        files (the longest such module path); the standard library and other modules stay partial. Of
        several go.mod files that declare that module path, the importer's own (the nearest above it),
        else the only one."""
        owners = [module for module in self.go_modules if raw == module or raw.startswith(module + "/")]
        if not owners:
            return None
        module = max(owners, key=len)
        roots = self.go_modules[module]
        own = [root for root in roots if not root or importer.startswith(root + "/")]
        if own:
            root = max(own, key=len)
        elif len(roots) == 1:
            root = roots[0]
        else:
            return None
        folder = posixpath.join(root, raw[len(module) + 1 :]).strip("/") if raw != module else root
        return self.folders.get((language, posixpath.normpath(folder) if folder else ""))

    # -- Rust: crates and their module trees ----------------------------------------

    def symbol_crate(self, symbol: Symbol) -> str | None:
        """The folder the crate of a symbol's file starts from (``crate_root``)."""
        return self.crate_root(symbol.path)

    def crate_root(self, path: str) -> str | None:
        """The folder a Rust file's crate starts its module paths from; None for other files."""
        if not path.endswith(".rs") or "rust" not in self.systems:
            return None
        if path not in self._crate_roots:
            place = self._crate_of(path)
            self._crate_roots[path] = place[0] if place is not None else None
        return self._crate_roots[path]

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


def shared_folders(path: str, other: str) -> int:
    """How many folders two paths start with in common."""
    shared = 0
    for a, b in zip(path.split("/")[:-1], other.split("/")[:-1]):
        if a != b:
            break
        shared += 1
    return shared


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


def repository_names(analyses: dict[str, FileAnalysis]) -> RepositoryNames:
    """The repository's names, with base classes resolved."""
    names = RepositoryNames(analyses.values())
    names.resolve_inheritance(
        (analysis.facts.module, reference)
        for analysis in analyses.values()
        if analysis.facts is not None and analysis.facts.module is not None
        for reference in analysis.facts.references
    )
    return names


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
