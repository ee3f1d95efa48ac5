"""Routes whose prefix another file sets: a router mounted from where it is imported, and a global prefix.

Express and Koa mount a module's router under a prefix where they import it
(``app.use('/api', api)`` with ``api = require('./routes')``, and in
``routes/index.js`` ``router.use('/users', require('./users'))``): the routes
of ``routes/users.js`` serve ``/api/users/...``. NestJS's
``app.setGlobalPrefix('api')`` in the application's ``main.ts`` puts every
controller route of the application (the files under the folder of that
file) under ``/api``. The tree-sitter pass records both as ``Mount`` facts
(a router the file makes itself is prefixed there already); this pass follows
them across files, outermost prefix first.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace

from rag.analysis.records import Entrypoint
from rag.analysis.resolution import ImportTargets
from rag.analysis.results import FileAnalysis

# The frameworks whose routers are mounted by ``use``, and the one a global prefix applies to.
MOUNTED_FRAMEWORKS = frozenset({"express", "koa"})
GLOBAL_PREFIX_FRAMEWORKS = frozenset({"nestjs"})
# A router mounted from several places serves under each prefix; past this many, under the first ones.
MAX_PREFIXES = 4


def join_prefix(*parts: str) -> str:
    """``/api`` + ``/users`` + ``/`` -> ``/api/users``."""
    return "/" + "/".join(stripped for part in parts if (stripped := part.strip("/")))


def with_mounted_prefixes(
    imports: ImportTargets, analyses: dict[str, FileAnalysis], found: dict[str, list[Entrypoint]],
) -> dict[str, list[Entrypoint]]:
    """``found`` (entrypoints by path) with the routes of mounted routers and of globally prefixed
    applications under their prefixes."""
    prefixes = _mounted_prefixes(imports, analyses)
    global_prefixes = [
        (posixpath.dirname(path), mount.prefix or "")
        for path, analysis in analyses.items() if analysis.facts is not None
        for mount in analysis.facts.mounts if mount.method == "global_prefix"
    ]
    if not prefixes and not global_prefixes:
        return found
    changed: dict[str, list[Entrypoint]] = {}
    for path, entries in found.items():
        mounted = prefixes.get(path, [])
        under = [prefix for folder, prefix in global_prefixes if not folder or path.startswith(folder + "/")][:1]
        if not mounted and not under:
            changed[path] = entries
            continue
        changed[path] = [
            replace(entry, route_or_command=join_prefix(prefix, entry.route_or_command))
            for entry in entries
            for prefix in _prefixes_of(entry, mounted, under)
        ]
    return changed


def _prefixes_of(entry: Entrypoint, mounted: list[str], under: list[str]) -> list[str]:
    """The prefixes an entrypoint serves under: ``[""]`` keeps it as it is."""
    if entry.entry_type != "http_route":
        return [""]
    if entry.framework in MOUNTED_FRAMEWORKS and mounted:
        return mounted
    if entry.framework in GLOBAL_PREFIX_FRAMEWORKS and under:
        return under
    return [""]


def _mounted_prefixes(imports: ImportTargets, analyses: dict[str, FileAnalysis]) -> dict[str, list[str]]:
    """Per file whose router another file mounts: the whole prefixes it serves under, from the files
    that mount without being mounted themselves."""
    path_of = {unit: path for path, unit in imports.units.items()}
    children: dict[str, list[tuple[str, str]]] = {}
    for path, analysis in analyses.items():
        if analysis.facts is None:
            continue
        for mount in analysis.facts.mounts:
            if mount.method != "use":
                continue
            target = imports.target(mount.child, analysis)
            child = path_of.get(target) if target is not None else None
            if child is not None and child != path:
                children.setdefault(path, []).append((mount.prefix or "", child))
    mounted_somewhere = {child for mounted in children.values() for _, child in mounted}
    prefixes: dict[str, list[str]] = {}

    def visit(path: str, outer: str, seen: frozenset[str]) -> None:
        for prefix, child in children.get(path, ()):
            whole = join_prefix(outer, prefix)
            known = prefixes.setdefault(child, [])
            if child in seen or whole in known or len(known) >= MAX_PREFIXES:
                continue
            known.append(whole)
            visit(child, whole, seen | {child})

    for root in sorted(set(children) - mounted_somewhere):
        visit(root, "", frozenset({root}))
    return prefixes
