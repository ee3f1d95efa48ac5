"""npm's ``package.json`` and Composer's ``composer.json``: JSON objects of package names and versions, by section."""

from __future__ import annotations

from collections.abc import Iterator

from rag.analysis.manifest_text import KeyLines, json_value
from rag.analysis.records import Dependency


def _json_sections(
    ecosystem: str, sections: dict[str, str], path: str, text: str, lines: list[str]
) -> Iterator[Dependency]:
    data = json_value(text)
    if not isinstance(data, dict):
        return
    keys = KeyLines(lines)
    for key, scope in sections.items():
        declared = data.get(key)
        if not isinstance(declared, dict):
            continue
        after = keys.line(key) - 1
        for name, version in declared.items():
            if isinstance(name, str) and name:
                shown = version if isinstance(version, str) else ""
                yield Dependency(ecosystem, name, shown, scope, path, keys.line(name, after))


def package_json(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    sections = {
        "dependencies": "runtime",
        "devDependencies": "dev",
        "peerDependencies": "peer",
        "optionalDependencies": "optional",
    }
    return _json_sections("npm", sections, path, text, lines)


def composer_json(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _json_sections("composer", {"require": "runtime", "require-dev": "dev"}, path, text, lines)
