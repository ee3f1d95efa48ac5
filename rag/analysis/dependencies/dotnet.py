""".NET's project files (``<PackageReference>``), ``Directory.Packages.props`` and ``packages.config``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator

from rag.analysis.dependencies.common import parse_xml, xml_local
from rag.analysis.records import Dependency

_MSBUILD_PROPERTY = re.compile(r"\$\(\s*([\w.-]+)\s*\)")


def csproj(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _msbuild_items({"PackageReference": "runtime"}, path, text, lines)


def directory_packages_props(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _msbuild_items({"PackageVersion": "managed"}, path, text, lines)


def _msbuild_items(tags: dict[str, str], path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    """MSBuild's package items (``<PackageReference Include="X" Version="1.0" />``), a version written as
    a property (``$(SerilogVersion)``) read from the file's ``<PropertyGroup>``s."""
    root, starts = parse_xml(text)
    if xml_local(root.tag) != "Project":
        return
    properties = {}
    for element in root.iter():
        if xml_local(element.tag) == "PropertyGroup":
            properties.update({xml_local(item.tag).lower(): (item.text or "").strip() for item in element})
    for element in root.iter():
        scope = tags.get(xml_local(element.tag))
        name = _xml_attribute(element, "Include") or _xml_attribute(element, "Update")
        if scope is None or not name:
            continue
        version = _msbuild_metadata(element, "Version") or _msbuild_metadata(element, "VersionOverride")
        version = _MSBUILD_PROPERTY.sub(lambda found: properties.get(found.group(1).lower()) or found.group(0), version)
        if scope == "runtime" and _msbuild_metadata(element, "PrivateAssets").lower() == "all":
            scope = "dev"
        yield Dependency("nuget", name, version, scope, path, starts.get(element, 1))


def packages_config(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    root, starts = parse_xml(text)
    if xml_local(root.tag) != "packages":
        return
    for element in root:
        name = _xml_attribute(element, "id")
        if xml_local(element.tag) != "package" or not name:
            continue
        scope = "dev" if _xml_attribute(element, "developmentDependency").lower() == "true" else "runtime"
        yield Dependency("nuget", name, _xml_attribute(element, "version"), scope, path, starts.get(element, 1))


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
