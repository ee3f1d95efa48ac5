"""The packages a repository declares it depends on, read from its manifests.

``declared_dependencies(path, text)`` reads one manifest and gives a
``Dependency`` for each package it declares: the package registry's name for
its ecosystem, the package's name as that registry spells it, the version as
the manifest writes it (a range, an exact version, a path or a git source), the
scope the manifest puts it in and the line that declares it. A file that is no
manifest, or that its format's parser refuses, declares nothing; nothing here
raises on what an upload may hold.

Manifests read (by file name; ``MANIFEST_NAMES`` and ``MANIFEST_SUFFIXES``), one
module per family of formats:

- npm ``package.json``, Composer ``composer.json``;
- Cargo ``Cargo.toml`` (every ``*dependencies`` table, a target's and the
  workspace's included), ``go.mod``;
- Maven ``pom.xml`` (a version written as a property, ``${jackson.version}``,
  read from the file's ``<properties>``), Gradle ``build.gradle`` and
  ``build.gradle.kts`` (``implementation("group:name:version")`` and the map
  notation), Gradle's version catalog ``libs.versions.toml``;
- Python ``requirements*.txt`` (and ``.txt`` and ``.in`` files under a
  ``requirements/`` folder), ``pyproject.toml`` (PEP 621 and PEP 735, and
  Poetry's tables), ``setup.cfg``, ``setup.py`` (literal lists only);
- Ruby ``Gemfile`` and ``gems.rb`` (a ``group`` block's or a ``group:``
  option's names as the scope) and ``*.gemspec``;
- .NET ``*.csproj``, ``*.fsproj`` and ``*.vbproj`` (``<PackageReference>``,
  also in ``Directory.Build.props`` and ``Directory.Build.targets``, which
  every project below them imports),
  ``Directory.Packages.props`` (central versions, ``managed``),
  ``packages.config``;
- Dart ``pubspec.yaml``, Elixir ``mix.exs`` (the ``deps`` function's tuples),
  Swift ``Package.swift``;
- C and C++: vcpkg's ``vcpkg.json``, Conan's ``conanfile.txt`` and
  ``conanfile.py`` (literal strings only).

Nothing here reads a lock file: the question a team asks is what the project
asked for, and lock files are generated.
"""

from __future__ import annotations

import configparser
import itertools
import posixpath
import re
from dataclasses import replace

from rag.analysis.dependencies import code_manifests, dart, dotnet, gomod, jvm, native, npm, python, ruby
from rag.analysis.dependencies.cargo import cargo_toml
from rag.analysis.dependencies.common import Reader
from rag.analysis.records import Dependency

__all__ = ["MANIFEST_NAMES", "MANIFEST_SUFFIXES", "MAX_ENTRIES", "MAX_MANIFEST_CHARS", "Dependency", "declared_dependencies", "is_manifest", "manifest_reader"]

# A manifest longer than this is no one's hand-written manifest: it is not read.
MAX_MANIFEST_CHARS = 1024 * 1024
# The most entries read of one manifest (the largest real ones, monorepos' version catalogs, hold a few thousand).
MAX_ENTRIES = 5_000


def declared_dependencies(path: str, text: str) -> list[Dependency]:
    """The packages the manifest at ``path`` declares, in the file's order; none for other files."""
    reader = manifest_reader(path)
    if reader is None or len(text) > MAX_MANIFEST_CHARS:
        return []
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    try:
        found = list(itertools.islice(reader(path, text, lines), MAX_ENTRIES))
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError, configparser.Error):
        # SyntaxError: Python's parser, and ElementTree's ParseError, refusing the file.
        return []
    last = max(len(lines), 1)
    return sorted(
        (replace(d, line=min(max(d.line, 1), last)) if not 1 <= d.line <= last else d for d in found if d.name.strip()),
        key=lambda dependency: dependency.line,
    )


def is_manifest(path: str) -> bool:
    return manifest_reader(path) is not None


def manifest_reader(path: str) -> Reader | None:
    name = posixpath.basename(path).lower()
    reader = MANIFEST_NAMES.get(name)
    if reader is not None:
        return reader
    if _REQUIREMENTS_NAME.fullmatch(name) or (
        posixpath.basename(posixpath.dirname(path)).lower() == "requirements" and name.endswith((".txt", ".in"))
    ):
        return python.requirements_txt
    for suffix, reader in MANIFEST_SUFFIXES.items():
        if name.endswith(suffix):
            return reader
    return None


_REQUIREMENTS_NAME = re.compile(r"requirements([-_.][\w.-]*)?\.(txt|in)")



# Manifests by file name (lower case), and by the end of their name.
MANIFEST_NAMES: dict[str, Reader] = {
    "package.json": npm.package_json,
    "composer.json": npm.composer_json,
    "cargo.toml": cargo_toml,
    "go.mod": gomod.go_mod,
    "pom.xml": jvm.pom_xml,
    "build.gradle": jvm.build_gradle,
    "build.gradle.kts": jvm.build_gradle,
    "libs.versions.toml": jvm.versions_toml,
    "pyproject.toml": python.pyproject_toml,
    "setup.cfg": python.setup_cfg,
    "setup.py": python.setup_py,
    "gemfile": ruby.gemfile,
    # Bundler's other name for a Gemfile.
    "gems.rb": ruby.gemfile,
    "directory.packages.props": dotnet.directory_packages_props,
    # MSBuild imports these into every project below their folder: their package references are all of those projects'.
    "directory.build.props": dotnet.csproj,
    "directory.build.targets": dotnet.csproj,
    "packages.config": dotnet.packages_config,
    "pubspec.yaml": dart.pubspec_yaml,
    "mix.exs": code_manifests.mix_exs,
    "package.swift": code_manifests.package_swift,
    "vcpkg.json": native.vcpkg_json,
    "conanfile.txt": native.conanfile_txt,
    "conanfile.py": native.conanfile_py,
}
MANIFEST_SUFFIXES: dict[str, Reader] = {
    ".gemspec": ruby.gemspec,
    ".csproj": dotnet.csproj,
    ".fsproj": dotnet.csproj,
    ".vbproj": dotnet.csproj,
}
