"""What the dependency readers share beyond reading a manifest's text (``rag.analysis.manifest_text``):
the readers' shape, a TOML dependency table's version, XML with each element's line."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterable
from xml.parsers import expat
from typing import Any

from rag.analysis.records import Dependency

# A manifest's reader: (path, text, lines) -> the dependencies it declares.
Reader = Callable[[str, str, list[str]], Iterable[Dependency]]


def source_version(spec: Any) -> str:
    """What a TOML table of a dependency says of its version (Cargo's, Poetry's): ``version``, else
    ``workspace``, ``path ../core`` or ``git <url>``; a plain string is the version."""
    if isinstance(spec, str):
        return spec
    if not isinstance(spec, dict):
        return ""
    if isinstance(spec.get("version"), str):
        return spec["version"]
    if spec.get("workspace") is True:
        return "workspace"
    for source in ("path", "git"):
        if isinstance(spec.get(source), str):
            return f"{source} {spec[source]}"
    return ""


def parse_xml(text: str) -> tuple[ElementTree.Element, dict[ElementTree.Element, int]]:
    """An XML document's root and the 1-based line each element starts on, from one pass of expat.

    Python's expat (2.4 and later) refuses entity expansion attacks, and nothing here resolves an
    external entity, so an upload's XML costs what its size says. A document expat refuses raises
    ``ValueError``.
    """
    builder = ElementTree.TreeBuilder()
    starts: dict[ElementTree.Element, int] = {}
    parser = expat.ParserCreate()

    def start(tag: str, attributes: dict[str, str]) -> None:
        starts[builder.start(tag, attributes)] = parser.CurrentLineNumber

    parser.StartElementHandler = start
    parser.EndElementHandler = builder.end
    parser.CharacterDataHandler = builder.data
    try:
        parser.Parse(text, True)
        return builder.close(), starts
    except (expat.ExpatError, AssertionError) as error:  # AssertionError: TreeBuilder's, of a document without a root
        raise ValueError(f"not XML: {error}") from error


def xml_local(tag: Any) -> str:
    """An XML element's tag or attribute without its namespace (``{http://maven.apache.org/POM/4.0.0}project``,
    ``pom:project``: ``project``)."""
    return tag.rpartition("}")[2].rpartition(":")[2] if isinstance(tag, str) else ""
