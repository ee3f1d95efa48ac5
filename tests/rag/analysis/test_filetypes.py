"""Language, artifact type and module names from paths; windows for non-Python files."""

from __future__ import annotations

import pytest

from rag.analysis.filetypes import artifact_type, detect_language, module_name
from rag.analysis.repository import analyze_file


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("shop/models.py", ("shop.models", False)),
        ("shop/__init__.py", ("shop", True)),
        ("src/shop/api/__init__.py", ("shop.api", True)),
        ("packages/core/src/core/db.py", ("core.db", False)),
        ("my-project/shop/views.py", ("shop.views", False)),
        ("app/migrations/0001_initial.py", ("app.migrations.0001_initial", False)),
        ("__init__.py", (None, False)),
        ("README.md", (None, False)),
        ("stubs/shop.pyi", ("stubs.shop", False)),
    ],
)
def test_module_names_follow_the_package_layout(path, expected):
    assert module_name(path) == expected


@pytest.mark.parametrize(
    ("path", "language", "artifact"),
    [
        ("shop/views.py", "python", "code"),
        ("tests/test_views.py", "python", "test"),
        ("shop/conftest.py", "python", "test"),
        ("shop/views_test.py", "python", "test"),
        ("web/app.test.ts", "typescript", "test"),
        ("setup.py", "python", "config"),
        ("pyproject.toml", "toml", "config"),
        ("setup.cfg", "ini", "config"),
        (".github/workflows/ci.yml", "yaml", "config"),
        ("Dockerfile", "dockerfile", "config"),
        ("docs/index.rst", "rst", "docs"),
        ("README", "text", "docs"),
        ("CHANGES.md", "markdown", "docs"),
        ("static/app.js", "javascript", "code"),
        ("data/blob.xyz", "unknown", "code"),
    ],
)
def test_it_detects_language_by_extension_and_artifact_type_by_path(path, language, artifact):
    assert detect_language(path) == language
    assert artifact_type(path, language) == artifact


def test_files_of_languages_without_a_grammar_get_overlapping_windows():
    text = "".join(f"echo x{n}\n" for n in range(170))
    analysis = analyze_file("scripts/build.sh", text)
    assert analysis.language == "shell"
    assert [(c.start_line, c.end_line, c.title) for c in analysis.chunks] == [
        (1, 80, "scripts/build.sh:1-80"),
        (66, 145, "scripts/build.sh:66-145"),
        (131, 170, "scripts/build.sh:131-170"),
    ]
    assert analysis.chunks[1].content.splitlines()[0] == "echo x65"
    assert analysis.chunks[2].metadata == {
        "chunk_index": 2,
        "chunk_type": "window",
        "module_or_unit": "scripts/build.sh",
        "artifact_type": "code",
    }
    assert analysis.symbols == [] and analysis.edges == [] and analysis.error is None
