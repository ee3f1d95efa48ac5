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
import sys
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
    importers = _importers(run)
    own, *guessed = _import_keys(dependency)
    if guessed:
        # A module guessed for a package (``mongo`` of ``pymongo``) that names another package the
        # manifests declare is that package's.
        declared = _declared_names(run)
        guessed = [key for key in guessed if key not in declared]
    return tuple(sorted(set().union(*(importers.get((dependency.ecosystem, key), ()) for key in (own, *guessed)))))


def _import_keys(dependency: Dependency) -> list[str]:
    """What the package's imports are looked up by, as ``_imported_keys`` writes them: its name, and for PyPI's
    packages the modules they install when these are named otherwise (``_pypi_modules``)."""
    name = dependency.name.lower()
    if dependency.ecosystem == "cargo":
        return [name.replace("-", "_")]
    if dependency.ecosystem == "pypi":
        return _pypi_modules(_SEPARATORS.sub("_", name))
    return [name]


# PyPI's packages whose modules are named apart from the package and from the ways ``_pypi_modules`` tries
# (``beautifulsoup4`` installs ``bs4``): the much used ones, by the package's name as PyPI normalises it, with
# ``_`` for its separators; a module in a package's folder is written with ``_`` too (``google.protobuf``).
_PYPI_MODULES = {
    "beautifulsoup4": ("bs4",), "pillow": ("pil",), "scikit_learn": ("sklearn",), "scikit_image": ("skimage",),
    "opencv_python": ("cv2",), "opencv_python_headless": ("cv2",), "opencv_contrib_python": ("cv2",),
    "opencv_contrib_python_headless": ("cv2",), "attrs": ("attr", "attrs"), "protobuf": ("google_protobuf",),
    "djangorestframework": ("rest_framework",), "djangorestframework_simplejwt": ("rest_framework_simplejwt",),
    "django_cors_headers": ("corsheaders",), "django_filter": ("django_filters",), "django_environ": ("environ",),
    "django_storages": ("storages",), "django_debug_toolbar": ("debug_toolbar",), "django_crispy_forms": ("crispy_forms",),
    "django_allauth": ("allauth",), "django_rest_swagger": ("rest_framework_swagger",),
    "pymupdf": ("fitz", "pymupdf"), "pycryptodome": ("crypto",), "pycryptodomex": ("cryptodome",),
    "mysqlclient": ("mysqldb",), "mysql_connector_python": ("mysql_connector",), "gitpython": ("git",),
    "pygobject": ("gi",), "wxpython": ("wx",), "grpcio": ("grpc",), "grpcio_tools": ("grpc_tools",), "dnspython": ("dns",),
    "python_telegram_bot": ("telegram",), "setuptools": ("setuptools", "pkg_resources"),
    "pywin32": ("win32api", "win32con", "win32com", "pywintypes"), "google_api_python_client": ("googleapiclient",),
}
# What a package's name adds around the module it installs: ``python-dateutil`` is ``dateutil``, ``pyserial``
# ``serial``, ``psycopg2-binary`` ``psycopg2``, ``kafka-python`` ``kafka``.
_PYPI_AFFIXES = re.compile(r"^(?:python_|py_|py(?=[a-z]{3}))|_(?:python|py|binary|cpu|gpu)$")


def _pypi_modules(name: str) -> list[str]:
    """The modules a PyPI package (its name as ``_import_keys`` writes it) may install, its own name first:
    its name; the modules ``_PYPI_MODULES`` gives it; else its name without what packages add around a
    module's name (``_PYPI_AFFIXES``), unless that is a module of Python's own library."""
    if name in _PYPI_MODULES:
        return list(dict.fromkeys((name, *_PYPI_MODULES[name])))
    bare = _PYPI_AFFIXES.sub("", name)
    if bare and bare != name and bare not in sys.stdlib_module_names:
        return [name, bare]
    return [name]


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
        # Each leading path, its parts joined as a namespace package's name joins them (``zope.interface``,
        # ``google.cloud.storage``: ``zope_interface``, ``google_cloud_storage``).
        parts = raw.split(".") if not raw.startswith(".") else []
        return ["_".join(parts[:end]) for end in range(len(parts), 0, -1)]
    if ecosystem == "nuget":
        parts = raw.removeprefix("static ").split(".")
        return [".".join(parts[:end]) for end in range(len(parts), 0, -1)]
    if ecosystem == "pub" and raw.startswith("package:"):
        return [raw[len("package:"):].split("/", 1)[0]]
    return []


@cached(LRUCache(maxsize=32), lock=threading.Lock(), key=lambda run: hashkey(run.pk, run.store_id, run.created_at))
def _declared_names(run: IndexRun) -> frozenset[str]:
    """The names the version's manifests declare PyPI's packages by, as ``_import_keys`` writes them."""
    return frozenset(_import_keys(dependency)[0] for dependency in _declared(run)[0] if dependency.ecosystem == "pypi")


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
