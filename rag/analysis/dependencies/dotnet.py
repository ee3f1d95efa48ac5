""".NET's project files (``<PackageReference>``), ``Directory.Packages.props`` and ``packages.config``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from xml.sax.saxutils import unescape

from rag.analysis.dependencies.common import line_after, places, xml_local
from rag.analysis.records import Dependency

_MSBUILD_PROPERTY = re.compile(r"\$\(\s*([\w.-]+)\s*\)")


def csproj(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _msbuild_items({"PackageReference": "runtime"}, path, text, lines)


def directory_packages_props(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _msbuild_items({"PackageVersion": "managed"}, path, text, lines)


def _msbuild_items(tags: dict[str, str], path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    """MSBuild's package items (``<PackageReference Include="X" Version="1.0" />``), a version written as
    a property (``$(SerilogVersion)``) read from the file's ``<PropertyGroup>``s."""
    root = ElementTree.fromstring(text)
    if xml_local(root.tag) != "Project":
        return
    properties = {}
    for element in root.iter():
        if xml_local(element.tag) == "PropertyGroup":
            properties.update({xml_local(item.tag).lower(): (item.text or "").strip() for item in element})
    attribute_lines = _xml_attribute_lines(lines, "Include|Update")
    cursor = 0
    for element in root.iter():
        scope = tags.get(xml_local(element.tag))
        name = _xml_attribute(element, "Include") or _xml_attribute(element, "Update")
        if scope is None or not name:
            continue
        version = _msbuild_metadata(element, "Version") or _msbuild_metadata(element, "VersionOverride")
        version = _MSBUILD_PROPERTY.sub(lambda found: properties.get(found.group(1).lower()) or found.group(0), version)
        if scope == "runtime" and _msbuild_metadata(element, "PrivateAssets").lower() == "all":
            scope = "dev"
        line, cursor = line_after(attribute_lines, name.lower(), cursor)
        yield Dependency("nuget", name, version, scope, path, line)


def packages_config(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    root = ElementTree.fromstring(text)
    if xml_local(root.tag) != "packages":
        return
    attribute_lines = _xml_attribute_lines(lines, "id")
    cursor = 0
    for element in root:
        name = _xml_attribute(element, "id")
        if xml_local(element.tag) != "package" or not name:
            continue
        scope = "dev" if _xml_attribute(element, "developmentDependency").lower() == "true" else "runtime"
        line, cursor = line_after(attribute_lines, name.lower(), cursor)
        yield Dependency("nuget", name, _xml_attribute(element, "version"), scope, path, line)


def _xml_attribute(element: ElementTree.Element, name: str) -> str:
    """The attribute ``name`` (in any case, as MSBuild reads it), stripped; "" when absent."""
    wanted = name.lower()
    return next((value.strip() for key, value in element.attrib.items() if xml_local(key).lower() == wanted), "")


def _msbuild_metadata(element: ElementTree.Element, name: str) -> str:
    """An item's metadata, written as an attribute or as a child element."""
    wanted = name.lower()
    attribute = _xml_attribute(element, name)
    if attribute:
        return attribute
    return next(((child.text or "").strip() for child in element if xml_local(child.tag).lower() == wanted), "")


def _xml_attribute_lines(lines: list[str], attributes: str) -> dict[str, list[int]]:
    """The line indexes where each value (lower case) is given to one of the ``attributes`` (a pattern: ``Include|Update``)."""
    pattern = re.compile(rf"""\b(?:{attributes})\s*=\s*(["'])(.*?)\1""", re.IGNORECASE)
    return places((index, unescape(found.group(2)).strip().lower()) for index, line in enumerate(lines) for found in pattern.finditer(line))
