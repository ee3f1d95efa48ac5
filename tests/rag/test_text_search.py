"""Exact text search over a real index: lines, case, regular expressions, paths, limits and hostile patterns."""

from __future__ import annotations

import random

import pytest

from rag.models import IndexRun
from rag.services.text_search import MAX_PATTERN_CHARS, TextSearchError, search_text
from tests.rag.conftest import index_zip, make_zip

POM = """<project>
  <dependencies>
    <dependency>
      <groupId>com.fasterxml.jackson.core</groupId>
      <artifactId>jackson-databind</artifactId>
      <version>2.17.1</version>
    </dependency>
  </dependencies>
</project>
"""
SERVER = """package api

// Jackson-Databind is configured by the Java service, not here.
func Serve() error {
\treturn nil
}
"""
# One line of characters that rarely repeat: a pattern of back-references tries every split of it.
_RANDOM = random.Random(0)
NOISE = "".join(_RANDOM.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(1000))


@pytest.fixture
def service(owner, upload_dir):
    files = {"pom.xml": POM, "api/server.go": SERVER, "api/noise.txt": NOISE + "\n", "README.md": "Uses jackson-databind 2.17.\n"}
    run = index_zip(owner, make_zip(files), name="service")
    assert run.status == IndexRun.Status.READY, run.error
    return run.repository


def _found(result) -> list[tuple[str, int, str]]:
    return [(m.path, m.line, m.text) for m in result.matches]


def test_every_line_that_contains_the_text_in_path_and_line_order(service):
    found = search_text(service, "jackson-databind")
    assert _found(found) == [
        ("README.md", 1, "Uses jackson-databind 2.17."),
        ("api/server.go", 3, "// Jackson-Databind is configured by the Java service, not here."),
        ("pom.xml", 5, "      <artifactId>jackson-databind</artifactId>"),
    ]
    assert not found.truncated and found.matches[2].citation == "pom.xml:5"
    assert [m.path for m in search_text(service, "jackson-databind", case_sensitive=True).matches] == ["README.md", "pom.xml"]
    # Smart case: a capital letter asks for the case as written, unless told otherwise.
    assert [m.path for m in search_text(service, "Jackson-Databind").matches] == ["api/server.go"]
    assert len(search_text(service, "Jackson-Databind", case_sensitive=False).matches) == 3
    assert search_text(service, "Jackson-Databind").case_sensitive and not search_text(service, "jackson").case_sensitive
    # Regular-expression characters are plain text unless asked for.
    assert search_text(service, "databind.*2").matches == ()
    assert [m.path for m in search_text(service, "databind.*2", regex=True).matches] == ["README.md"]


def test_regular_expressions_and_paths(service):
    assert _found(search_text(service, r"<version>\d+\.\d+", regex=True)) == [("pom.xml", 6, "      <version>2.17.1</version>")]
    assert [m.line for m in search_text(service, r"^func \w+\(", regex=True).matches] == [4]
    assert [m.line for m in search_text(service, r"(?i)^FUNC \w+\(", regex=True, case_sensitive=True).matches] == [4]
    assert [m.line for m in search_text(service, r"error {$", regex=True).matches] == [4]
    assert [m.line for m in search_text(service, r"^(?:func|package) \w+", regex=True).matches] == [1, 4]
    # Behind a director the pattern is matched by lines alone.
    assert [m.line for m in search_text(service, r"***:^func \w+", regex=True).matches] == [4]
    assert [m.path for m in search_text(service, "jackson", path_glob="**/*.go").matches] == ["api/server.go"]


def test_a_limit_says_that_more_lines_match(service):
    first = search_text(service, "e", limit=2)
    assert len(first.matches) == 2 and first.truncated
    assert not search_text(service, "e", limit=500).truncated


def test_bad_patterns_get_a_clear_error(service):
    with pytest.raises(TextSearchError, match="invalid regular expression"):
        search_text(service, "(unclosed", regex=True)
    with pytest.raises(TextSearchError, match="empty"):
        search_text(service, "")
    with pytest.raises(TextSearchError, match=f"longer than {MAX_PATTERN_CHARS}"):
        search_text(service, "x" * (MAX_PATTERN_CHARS + 1))
    with pytest.raises(TextSearchError, match="path glob"):
        search_text(service, "x", path_glob="!*.py")


def test_a_pattern_that_needs_too_long_is_stopped_at_the_limit(service, settings):
    settings.RAG = {**settings.RAG, "TEXT_SEARCH_TIMEOUT_MS": 300}
    with pytest.raises(TextSearchError, match="longer than 0.3 s"):
        search_text(service, r"(.{20,})\1", regex=True)
    # The connection is usable afterwards, and the limit was the statement's own.
    assert [m.path for m in search_text(service, "jackson-databind", case_sensitive=True).matches] == ["README.md", "pom.xml"]
