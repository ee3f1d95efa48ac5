"""The files and definitions other languages' imports mean (``ImportTargets``): ES modules (relative
specifiers, workspace packages, ``tsconfig`` paths and bundler aliases, what barrels pass on), C and C++
includes, Go packages by their module path, Rust's ``mod`` and ``use`` (crates, ``crate::``, ``super::``),
Ruby's load path, Dart's packages, Lua's modules, shell scripts' ``source``, and the dotted names of the JVM's,
.NET's and PHP's packages and namespaces.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass

from rag.analysis.facts import (
    NamedImport,
)
from rag.analysis.languages.spec import (
    NAMESPACE_SEPARATOR,
    name_space,
    spec_named,
    unit_name,
)
from rag.analysis.names import MAX_DEPTH
from rag.analysis.records import Symbol
from rag.analysis.results import FileAnalysis

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


def shared_folders(path: str, other: str) -> int:
    """How many folders two paths start with in common."""
    shared = 0
    for a, b in zip(path.split("/")[:-1], other.split("/")[:-1]):
        if a != b:
            break
        shared += 1
    return shared
