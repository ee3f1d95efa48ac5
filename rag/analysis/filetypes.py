"""What a file is, from its path alone: language, artifact type and Python module name."""

from __future__ import annotations

import posixpath
import re
from typing import Literal

ArtifactType = Literal["code", "test", "config", "docs"]

EXTENSION_LANGUAGES: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".toml": "toml",
    ".cfg": "ini",
    ".ini": "ini",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".tsx": "typescript",
    ".go": "go",
    ".java": "java",
    ".kt": "kotlin",
    ".rs": "rust",
    ".rb": "ruby",
    ".php": "php",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".hpp": "cpp",
    ".cs": "csharp",
    ".sh": "shell",
    ".bash": "shell",
    ".sql": "sql",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "css",
    ".xml": "xml",
}

FILENAME_LANGUAGES: dict[str, str] = {
    "dockerfile": "dockerfile",
    "makefile": "make",
    "readme": "text",
    "license": "text",
    "changelog": "text",
    "authors": "text",
    "contributing": "text",
}

DOC_LANGUAGES = frozenset({"markdown", "rst", "text"})
CONFIG_LANGUAGES = frozenset({"toml", "ini", "yaml", "json"})
CONFIG_FILENAMES = frozenset({"dockerfile", "makefile", "setup.py"})
TEST_DIRECTORIES = frozenset({"test", "tests", "testing", "__tests__", "spec", "specs"})


def detect_language(path: str) -> str:
    """The language of ``path`` by extension (or well-known file name); ``unknown`` otherwise."""
    name = posixpath.basename(path).lower()
    stem, ext = posixpath.splitext(name)
    if ext in EXTENSION_LANGUAGES:
        return EXTENSION_LANGUAGES[ext]
    return FILENAME_LANGUAGES.get(stem if not ext else name, "unknown")


def is_test_path(path: str) -> bool:
    from rag.analysis.languages import is_test_file  # the languages' own conventions (languages/*/language.toml)

    if is_test_file(path):
        return True
    parts = path.lower().split("/")
    name = parts[-1]
    if name.startswith("test_") or name == "conftest.py" or name == "tests.py":
        return True
    stem = name.split(".", 1)[0]
    if stem.endswith("_test") or ".test." in name or ".spec." in name:
        return True
    return any(part in TEST_DIRECTORIES for part in parts[:-1])


def artifact_type(path: str, language: str) -> ArtifactType:
    if language in DOC_LANGUAGES:
        return "docs"
    if is_test_path(path):
        return "test"
    name = posixpath.basename(path).lower()
    if language in CONFIG_LANGUAGES or name in CONFIG_FILENAMES:
        return "config"
    return "code"


_MODULE_PART = re.compile(r"\w+", re.ASCII)


def module_name(path: str) -> tuple[str | None, bool]:
    """The dotted Python module for ``path`` and whether it is a package ``__init__``.

    Layouts with a ``src/`` folder are stripped up to and including that folder.
    Leading folders that cannot be part of a dotted name (``my-project/``) are
    dropped; a repository at the top of a file tree keeps its package names.
    A root ``__init__.py`` has no module name. Non-Python files give ``(None, False)``.
    """
    if not path.endswith((".py", ".pyi")):
        return None, False
    parts = path.split("/")
    if "src" in parts[:-1]:
        parts = parts[parts.index("src") + 1 :]
    parts[-1] = parts[-1].rsplit(".", 1)[0]
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    kept: list[str] = []
    for part in reversed(parts):
        if not _MODULE_PART.fullmatch(part):
            break
        kept.append(part)
    if not kept:
        return None, False
    return ".".join(reversed(kept)), is_package
