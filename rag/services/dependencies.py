"""The packages an index version's manifests declare (``rag.analysis.dependencies``).

Read from the version's stored manifests when first asked and kept per version
(a version's files never change): a few dozen small files in most
repositories, a few thousand in the largest monorepos. Manifests under test
folders (fixtures) are left out.
"""

from __future__ import annotations

import logging
import posixpath
import re
import threading
from collections import Counter
from dataclasses import dataclass, replace
from typing import TypeVar

from cachetools import LRUCache, cached
from cachetools.keys import hashkey

from rag.analysis.dependencies import (
    MANIFEST_NAMES, MANIFEST_SUFFIXES, MAX_ENTRIES, MAX_MANIFEST_CHARS, Dependency, declared_dependencies, is_manifest,
)
from rag.analysis.filetypes import detect_language, is_test_path
from rag.models import Edge, IndexRun, Repository, SourceFile
from rag.query_analysis import quoted_texts

logger = logging.getLogger(__name__)

# A version's manifests are read up to this many bytes in all, in path order (the largest monorepos'
# hold a few MB); the rest are counted, not read, so a first request stays within about a second.
MAX_MANIFEST_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class Dependencies:
    """What a version's manifests declare, and what was asked of them."""

    dependencies: tuple[Dependency, ...]
    manifests: int  # manifests read (whether or not they declare anything the filters kept)
    left_out: int = 0  # manifests past ``MAX_MANIFEST_BYTES``, not read

    def by_ecosystem(self) -> list[tuple[str, int]]:
        return Counter(dependency.ecosystem for dependency in self.dependencies).most_common()

    def manifest_paths(self) -> list[str]:
        return list(dict.fromkeys(dependency.path for dependency in self.dependencies))


def list_dependencies(
    repository: Repository, *, name: str | None = None, ecosystem: str | None = None, run: IndexRun | None = None
) -> Dependencies:
    """The dependencies the version's manifests declare, by manifest path and line.

    ``name`` keeps packages whose name contains it, in any case and with ``-``,
    ``_`` and ``.`` read alike (``jackson-databind`` finds
    ``com.fasterxml.jackson.core:jackson-databind``); ``ecosystem`` keeps one
    registry's (``npm``, ``cargo``, ``go``, ``maven``, ``pypi`` ...; any case).
    """
    run = run or repository.active_run
    if run is None or run.store_id is None:
        return Dependencies((), 0)
    declared, manifests, left_out = _declared(run)
    kept = declared
    if ecosystem:
        kept = tuple(dependency for dependency in kept if dependency.ecosystem == ecosystem.strip().lower())
    if name and (wanted := _comparable(name)):
        kept = tuple(dependency for dependency in kept if wanted in _comparable(dependency.name))
    return Dependencies(kept, manifests, left_out)


def named_dependencies(repository: Repository, text: str, *, run: IndexRun | None = None) -> tuple[Dependency, ...]:
    """The declared packages a question or request names, in the manifests' order.

    A package is named by its whole name or by its last part (``jackson-databind`` of
    ``com.fasterxml.jackson.core:jackson-databind``, ``gin`` of ``github.com/gin-gonic/gin``) when that
    name is written as code or quoted, has a character a word has not (``-``, ``.``, ``/``), or the
    text is about versions, upgrades or packages ("which version of react?", "bump lodash"): a plain
    word elsewhere ("how does the react app render?") may be any word.
    """
    declared = list_dependencies(repository, run=run).dependencies
    if not declared:
        return ()
    tokens = {token.strip(_TOKEN_ENDS).lower() for token in text.split()} - {""}
    quoted = {written.lower() for written in quoted_texts(text)}
    about_versions = _ABOUT_VERSIONS.search(text) is not None

    def named(dependency: Dependency) -> bool:
        return any(
            name in tokens and (about_versions or name in quoted or not name.replace("_", "").isalnum())
            for name in _names_of(dependency)
        )

    return tuple(dependency for dependency in declared if named(dependency))


def declarations_of(repository: Repository, name: str, *, run: IndexRun | None = None) -> tuple[Dependency, ...]:
    """The declarations of the package called ``name`` (any case): by its whole name or its last part."""
    wanted = name.strip().lower()
    if not wanted:
        return ()
    return tuple(d for d in list_dependencies(repository, name=wanted, run=run).dependencies if wanted in _names_of(d))


def _names_of(dependency: Dependency) -> set[str]:
    """A package's names, lower case: whole, and its last part (``jackson-databind``, ``gin``)."""
    full = dependency.name.lower()
    return {full, re.split(r"[:/]", full)[-1]}


# What a question's words may start or end with around a package's name (``react?``, "`lodash`").
_TOKEN_ENDS = "`'\".,;:!?()[]"
_ABOUT_VERSIONS = re.compile(r"\b(?:versions?|upgrad\w*|bump\w*|install\w*|depend\w*|librar\w*|packages?)\b", re.IGNORECASE)


# The ecosystem whose packages a file's imports name, by the file's language; the ecosystems whose code
# imports a package by its name (npm's ``lodash/fp``, Go's module path, Rust's crate, Python's top-level
# module, a .NET namespace, Dart's ``package:http/``). Maven's, Composer's, Hex's, Swift's and the others'
# packages are imported by names of their own (``com.google.guava:guava`` is ``com.google.common``).
_IMPORTING_LANGUAGES = {
    "javascript": "npm", "typescript": "npm", "tsx": "npm", "vue": "npm", "svelte": "npm", "go": "go", "rust": "cargo",
    "python": "pypi", "csharp": "nuget", "dart": "pub",
}
IMPORT_ECOSYSTEMS = frozenset(_IMPORTING_LANGUAGES.values())


def importing_files(repository: Repository, dependency: Dependency, *, run: IndexRun | None = None) -> tuple[str, ...] | None:
    """The files of the version whose imports name the package, in path order; None when its ecosystem's code
    does not import a package by its name (``IMPORT_ECOSYSTEMS``). A package a tool runs (a linter, a test
    runner) or a framework loads by configuration is imported by no file."""
    run = run or repository.active_run
    if dependency.ecosystem not in IMPORT_ECOSYSTEMS:
        return None
    if run is None or run.store_id is None:
        return ()
    return tuple(sorted(_importers(run).get((dependency.ecosystem, _import_key(dependency)), ())))


def _import_key(dependency: Dependency) -> str:
    """What the package's imports are looked up by, as ``_imported_keys`` writes them."""
    name = dependency.name.lower()
    if dependency.ecosystem == "cargo":
        return name.replace("-", "_")
    if dependency.ecosystem == "pypi":
        return _SEPARATORS.sub("_", name)
    return name


def _imported_keys(ecosystem: str, raw: str) -> list[str]:
    """The package names an import's text may name in an ecosystem: ``lodash`` of ``lodash/fp``,
    ``@vue/shared`` of ``@vue/shared/dist``, each leading part of a Go import path or a .NET namespace."""
    raw = raw.strip().lower()
    if ecosystem == "npm":
        if raw.startswith((".", "/")) or not raw:
            return []
        parts = raw.split("/")
        return ["/".join(parts[:2]) if raw.startswith("@") else parts[0]]
    if ecosystem == "go":
        parts = raw.split("/")
        return ["/".join(parts[:end]) for end in range(len(parts), 0, -1)]
    if ecosystem == "cargo":
        return [raw.split("::", 1)[0]]
    if ecosystem == "pypi":
        return [raw.split(".", 1)[0]]
    if ecosystem == "nuget":
        parts = raw.removeprefix("static ").split(".")
        return [".".join(parts[:end]) for end in range(len(parts), 0, -1)]
    if ecosystem == "pub" and raw.startswith("package:"):
        return [raw[len("package:"):].split("/", 1)[0]]
    return []


@cached(LRUCache(maxsize=32), lock=threading.Lock(), key=lambda run: hashkey(run.pk, run.store_id, run.created_at))
def _importers(run: IndexRun) -> dict[tuple[str, str], set[str]]:
    """The files importing each (ecosystem, package key), from the version's imports of code outside it."""
    found: dict[tuple[str, str], set[str]] = {}
    rows = Edge.objects.in_version(run).filter(kind="imports", dst__isnull=True).values_list("path", "raw")
    for path, raw in rows.iterator(chunk_size=5000):
        ecosystem = _IMPORTING_LANGUAGES.get(detect_language(path))
        if ecosystem is None or is_test_path(path):
            continue
        for key in _imported_keys(ecosystem, raw):
            found.setdefault((ecosystem, key), set()).add(path)
    return found


def _comparable(name: str) -> str:
    return _SEPARATORS.sub("-", name.strip().lower())


_SEPARATORS = re.compile(r"[-_.\s]+")


@cached(LRUCache(maxsize=32), lock=threading.Lock(), key=lambda run: hashkey(run.pk, run.store_id, run.created_at))
def _declared(run: IndexRun) -> tuple[tuple[Dependency, ...], int, int]:
    """What the version's manifests declare, how many were read, and how many were past the budget."""
    rows = (
        SourceFile.objects.in_version(run)
        .filter(path__iregex=_MANIFEST_PATHS, size__lte=MAX_MANIFEST_CHARS * 4)
        .order_by("path")
        .values_list("path", "size")
    )
    chosen: list[str] = []
    budget, left_out = MAX_MANIFEST_BYTES, 0
    for path, size in rows:
        if not is_manifest(path) or is_test_path(path):
            continue
        if size > budget:
            left_out += 1
            continue
        budget -= size
        chosen.append(path)
    texts = dict(SourceFile.objects.in_version(run).filter(path__in=chosen).values_list("path", "text"))
    declared: list[Dependency] = []
    for path in chosen:
        try:
            declared.extend(declared_dependencies(path, texts.get(path, "")))
        except Exception:
            # A fault of a reader on a shape of manifest it was not written for: the others still count.
            logger.exception("reading the dependencies of %s failed", path)
    return _with_managed_versions(_with_catalog_coordinates(declared)), len(chosen), left_out


def _with_catalog_coordinates(declared: list[Dependency]) -> list[Dependency]:
    """Each Gradle script's reference to its version catalog (``implementation(libs.androidx.core.ktx)``) as
    the library the catalog names, with the catalog's version and where: the catalog of the build the script
    is in (``<build>/gradle/libs.versions.toml``), the nearest one above it. A bundle
    (``libs.bundles.compose``) is each library it groups; the catalog's bundle entries are only that."""
    catalogs: dict[tuple[str, str], list[Dependency]] = {}  # (the build's folder, accessor) -> the catalog's entries
    for dependency in declared:
        if dependency.alias:
            key = (posixpath.dirname(posixpath.dirname(dependency.path)), dependency.alias)
            entries = catalogs.setdefault(key, [])
            if not entries or entries[0].path == dependency.path:
                entries.append(dependency)
    resolved = []
    # A script's entries, its bundles' libraries included, are at most a manifest's (``MAX_ENTRIES``): naming
    # a bundle of thousands of libraries thousands of times lists no more than any manifest does.
    per_manifest: Counter[str] = Counter()
    for dependency in declared:
        room = MAX_ENTRIES - per_manifest[dependency.path]
        if room <= 0 or (dependency.alias and dependency.scope == "bundle"):
            continue
        chosen = [dependency]
        if catalogs and dependency.ecosystem == "maven" and not dependency.alias and dependency.name.lower().startswith("libs."):
            if (entries := _nearest_above(catalogs, dependency.name.lower(), dependency.path)) is not None:
                chosen = [
                    replace(dependency, name=entry.name, version=_managed_version(entry) if entry.version else "")
                    for entry in entries[:room]
                ]
        per_manifest[dependency.path] += len(chosen)
        resolved.extend(chosen)
    return resolved


# Entries that set a version for the manifests below them: .NET's central package versions
# (``Directory.Packages.props``), Maven's ``<dependencyManagement>``, Cargo's ``[workspace.dependencies]``.
_MANAGING_SCOPES = frozenset({"managed", "workspace"})


def _with_managed_versions(declared: list[Dependency]) -> tuple[Dependency, ...]:
    """Each entry that writes no version of its own (or Cargo's ``workspace``) with the version the nearest
    manifest above it manages for that package, and where: ``14.2.0 (Directory.Packages.props:13)``."""
    managing: dict[tuple[str, str], Dependency] = {}  # (the manifest's folder, ecosystem:name) -> the entry
    for dependency in declared:
        if dependency.scope in _MANAGING_SCOPES and dependency.version:
            managing.setdefault((posixpath.dirname(dependency.path), _package_key(dependency)), dependency)
    resolved = []
    for dependency in declared:
        if managing and dependency.version in ("", "workspace") and dependency.scope not in _MANAGING_SCOPES:
            if (entry := _nearest_above(managing, _package_key(dependency), dependency.path)) is not None:
                dependency = replace(dependency, version=_managed_version(entry))
        resolved.append(dependency)
    return tuple(resolved)


def _package_key(dependency: Dependency) -> str:
    return f"{dependency.ecosystem}:{dependency.name.lower()}"


Entry = TypeVar("Entry")


def _nearest_above(entries: dict[tuple[str, str], Entry], key: str, path: str) -> Entry | None:
    """The entry for ``key`` of the folder nearest ``path`` among its own folder and those above it."""
    folder = posixpath.dirname(path)
    while True:
        if (entry := entries.get((folder, key))) is not None:
            return entry
        if not folder:
            return None
        folder = posixpath.dirname(folder)


def _managed_version(entry: Dependency) -> str:
    """The version an entry sets for others, and where: ``14.2.0 (Directory.Packages.props:13)``."""
    return f"{entry.version} ({entry.path}:{entry.line})"


def _manifest_paths() -> str:
    """A PostgreSQL expression for the paths that may be manifests (``is_manifest`` decides)."""
    names = "|".join(re.escape(name) for name in MANIFEST_NAMES)
    suffixes = "|".join(re.escape(suffix) for suffix in MANIFEST_SUFFIXES)
    ends = f"(^|/)({names})$" + (f"|({suffixes})$" if suffixes else "")
    return ends + r"|requirements[^/]*\.(txt|in)$"


_MANIFEST_PATHS = _manifest_paths()
