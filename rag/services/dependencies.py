"""The packages an index version's manifests declare (``rag.analysis.dependencies``).

Read from the version's stored manifests when first asked and kept per version
(a version's files never change): a few dozen small files in most
repositories, a few thousand in the largest monorepos. Manifests under test
folders (fixtures) are left out.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass

from cachetools import LRUCache, cached
from cachetools.keys import hashkey

from rag.analysis.dependencies import MANIFEST_NAMES, MANIFEST_SUFFIXES, MAX_MANIFEST_CHARS, Dependency, declared_dependencies, is_manifest
from rag.analysis.filetypes import is_test_path
from rag.models import IndexRun, Repository, SourceFile

# At most this many manifests of one version are read (the largest monorepos have a few thousand).
MAX_MANIFESTS = 10_000


@dataclass(frozen=True)
class Dependencies:
    """What a version's manifests declare, and what was asked of them."""

    dependencies: tuple[Dependency, ...]
    manifests: int  # manifests read (whether or not they declare anything the filters kept)

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
    declared, manifests = _declared(run)
    kept = declared
    if ecosystem:
        kept = tuple(dependency for dependency in kept if dependency.ecosystem == ecosystem.strip().lower())
    if name and (wanted := _comparable(name)):
        kept = tuple(dependency for dependency in kept if wanted in _comparable(dependency.name))
    return Dependencies(kept, manifests)


def _comparable(name: str) -> str:
    return _SEPARATORS.sub("-", name.strip().lower())


_SEPARATORS = re.compile(r"[-_.\s]+")


@cached(LRUCache(maxsize=32), lock=threading.Lock(), key=lambda run: hashkey(run.pk, run.store_id, run.created_at))
def _declared(run: IndexRun) -> tuple[tuple[Dependency, ...], int]:
    rows = (
        SourceFile.objects.in_version(run)
        .filter(path__iregex=_MANIFEST_PATHS, size__lte=MAX_MANIFEST_CHARS * 4)
        .order_by("path")
        .values_list("path", "text")[:MAX_MANIFESTS]
    )
    declared: list[Dependency] = []
    manifests = 0
    for path, text in rows:
        if is_manifest(path) and not is_test_path(path):
            manifests += 1
            declared.extend(declared_dependencies(path, text))
    return tuple(declared), manifests


def _manifest_paths() -> str:
    """A PostgreSQL expression for the paths that may be manifests (``is_manifest`` decides)."""
    names = "|".join(re.escape(name) for name in MANIFEST_NAMES)
    suffixes = "|".join(re.escape(suffix) for suffix in MANIFEST_SUFFIXES)
    ends = f"(^|/)({names})$" + (f"|({suffixes})$" if suffixes else "")
    return ends + r"|requirements[^/]*\.(txt|in)$"


_MANIFEST_PATHS = _manifest_paths()
