"""Maven's ``pom.xml``, Gradle's build scripts and Gradle's version catalog ``libs.versions.toml``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from typing import Any

from rag.analysis.dependencies.common import parse_xml, xml_local
from rag.analysis.manifest_text import KeyLines, TomlHeaders, toml_tables
from rag.analysis.records import Dependency

# A property (``${jackson.version}``).
_PROPERTY = re.compile(r"\$\{([^${}]+)\}")


def pom_xml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    root, starts = parse_xml(text)
    if xml_local(root.tag) != "project":
        return
    properties = {}
    for element in root:
        if xml_local(element.tag) == "properties":
            properties = {xml_local(item.tag): (item.text or "").strip() for item in element}
    for container, managed in _pom_dependency_lists(root):
        for dependency in container:
            if xml_local(dependency.tag) != "dependency":
                continue
            children = {xml_local(item.tag): item for item in dependency}
            fields = {tag: (item.text or "").strip() for tag, item in children.items()}
            group, artifact = fields.get("groupId", ""), fields.get("artifactId", "")
            if not artifact:
                continue
            version = _PROPERTY.sub(lambda found: properties.get(found.group(1)) or found.group(0), fields.get("version", ""))
            scope = "managed" if managed else fields.get("scope", "compile")
            line = starts.get(children["artifactId"], starts.get(dependency, 1))
            yield Dependency("maven", f"{group}:{artifact}" if group else artifact, version, scope, path, line)


def _pom_dependency_lists(root: ElementTree.Element) -> Iterator[tuple[ElementTree.Element, bool]]:
    """Each ``<dependencies>`` of the project and of its profiles, and of ``<dependencyManagement>`` (managed)."""
    owners = [root] + [
        profile for profiles in root if xml_local(profiles.tag) == "profiles" for profile in profiles
    ]
    for owner in owners:
        for element in owner:
            tag = xml_local(element.tag)
            if tag == "dependencies":
                yield element, False
            elif tag == "dependencyManagement":
                for inner in element:
                    if xml_local(inner.tag) == "dependencies":
                        yield inner, True


# implementation("group:name:version"), testImplementation 'group:name', api(platform("group:name:version"))
_GRADLE_STRING = re.compile(
    r"""^\s*(?P<configuration>[A-Za-z]\w*)\s*(?:\(\s*)?(?:(?:platform|enforcedPlatform)\s*\(\s*)?
    (?P<quote>["'])(?P<group>[^"':\s]+):(?P<name>[^"':\s]+)(?::(?P<version>[^"'\s@]+))?(?:@\w+)?(?P=quote)""",
    re.VERBOSE,
)
# implementation group: 'group', name: 'name', version: 'version'
_GRADLE_MAP = re.compile(r"""^\s*(?P<configuration>[A-Za-z]\w*)\s*(?:\(\s*)?group\s*[:=]\s*["'](?P<group>[^"']+)["']\s*,\s*name\s*[:=]\s*["'](?P<name>[^"']+)["'](?:\s*,\s*version\s*[:=]\s*["'](?P<version>[^"']+)["'])?""")
# implementation(libs.androidx.core.ktx), testImplementation libs.junit: a version catalog's library, by its accessor.
_GRADLE_CATALOG = re.compile(r"""^\s*(?P<configuration>[A-Za-z]\w*)(?:\s*\(\s*|\s+)(?:(?:platform|enforcedPlatform)\s*\(\s*)?(?P<name>libs\.[A-Za-z][\w.]*)[\s)]*(?://.*)?$""")
# Each pattern has one way to match a run of spaces, so a line of spaces costs its length, not its square.
# Calls of the build script that take coordinates and are no dependency.
_GRADLE_NOT_CONFIGURATIONS = frozenset({"id", "plugin", "apply", "from", "mavenBom", "exclude", "module", "because"})


def build_gradle(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    for number, line in enumerate(lines, 1):
        found = _GRADLE_STRING.match(line) or _GRADLE_MAP.match(line)
        if found is not None and found.group("configuration") not in _GRADLE_NOT_CONFIGURATIONS:
            name = f"{found.group('group')}:{found.group('name')}"
            yield Dependency("maven", name, found.group("version") or "", found.group("configuration"), path, number)
        elif (found := _GRADLE_CATALOG.match(line)) is not None and found.group("configuration") not in _GRADLE_NOT_CONFIGURATIONS:
            # Its coordinates and version are the catalog's (``libs.versions.toml``).
            yield Dependency("maven", found.group("name"), "", found.group("configuration"), path, number)


def versions_toml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    """Gradle's version catalog: ``[libraries]`` by coordinates, ``[plugins]`` by id, and each library a
    ``[bundles]`` entry groups (scope ``bundle``, under the bundle's accessor, at the library's line where
    its version is: what a script's ``libs.bundles.x`` stands for)."""
    data = toml_tables(text)
    if data is None:
        return
    versions = data.get("versions") if isinstance(data.get("versions"), dict) else {}
    headers, keys = TomlHeaders(lines), KeyLines(lines)
    libraries: dict[str, tuple[str, str, int]] = {}  # accessor -> coordinates, version, line
    for table, scope in (("libraries", "library"), ("plugins", "plugin")):
        entries = data.get(table)
        if not isinstance(entries, dict):
            continue
        after = max(headers.line(table) - 1, 0)
        for alias, spec in entries.items():
            name, version = _catalog_entry(spec, versions)
            if name:
                accessor, line = _accessor(alias, *(("plugins",) if table == "plugins" else ())), keys.line(alias, after)
                if table == "libraries":
                    libraries[accessor] = (name, version, line)
                yield Dependency("maven", name, version, scope, path, line, alias=accessor)
    bundles = data.get("bundles")
    if isinstance(bundles, dict):
        for alias, members in bundles.items():
            for member in members if isinstance(members, list) else ():
                if isinstance(member, str) and (library := libraries.get(_accessor(member))) is not None:
                    name, version, line = library
                    yield Dependency("maven", name, version, "bundle", path, line, alias=_accessor(alias, "bundles"))


# Gradle reads ``-``, ``_`` and ``.`` in a catalog's alias alike.
_ACCESSOR_PARTS = re.compile(r"[-_.]")


def _accessor(alias: str, *kind: str) -> str:
    """A catalog entry's accessor in a build script: ``androidx-core-ktx`` is ``libs.androidx.core.ktx``
    (``kind``: ``plugins``, ``bundles``)."""
    return ".".join(("libs", *kind, *_ACCESSOR_PARTS.split(alias))).lower()


def _catalog_entry(spec: Any, versions: dict[str, Any]) -> tuple[str, str]:
    if isinstance(spec, str):
        group, _, rest = spec.partition(":")
        artifact, _, version = rest.partition(":")
        return (f"{group}:{artifact}" if artifact else group), version
    if not isinstance(spec, dict):
        return "", ""
    if isinstance(spec.get("module"), str):
        name = spec["module"]
    elif isinstance(spec.get("group"), str) and isinstance(spec.get("name"), str):
        name = f"{spec['group']}:{spec['name']}"
    elif isinstance(spec.get("id"), str):
        name = spec["id"]
    else:
        return "", ""
    version = spec.get("version")
    if isinstance(version, dict):
        version = versions.get(version.get("ref")) if isinstance(version.get("ref"), str) else version.get("strictly") or version.get("require")
    elif version is None and isinstance(spec.get("version.ref"), str):
        version = versions.get(spec["version.ref"])
    return name, version if isinstance(version, str) else ""
