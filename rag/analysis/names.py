"""Python's names across a repository: each module's definitions, imports and star imports, packages'
re-exports, and classes' members with their bases (``RepositoryNames``), looked up the way Python would
find a name without running anything: a scope's own imports, then the module's definitions and imports,
then star imports; dotted paths walk packages, re-exports in ``__init__`` modules and class members
(inherited ones included).
"""

from __future__ import annotations

from collections.abc import Iterable

from rag.analysis.facts import (
    FileFacts,
    Instance,
    Reference,
)
from rag.analysis.records import Symbol
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
