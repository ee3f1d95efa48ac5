"""The lines of a repository's issue templates, per index version: what issues written from them repeat.

An issue filed through a template carries its headings and instructions
("Describe the bug", "To Reproduce", "Environment (please complete the
following information)"): the same words in every such issue, which match the
code that happens to use them (a command that files bug reports, messages that
say "expected") and not the code the issue is about. The search reads
the version's templates once per process (a version never changes) and leaves
their lines out of the query with the rest of the boilerplate.
"""

from __future__ import annotations

import threading

from cachetools import LRUCache

from rag.models import SourceFile
from rag.query_analysis import template_lines

# GitHub's templates and issue forms (``.github/ISSUE_TEMPLATE/*.md|yml``, a single ``issue_template.md`` in
# ``.github/``, ``docs/`` or at the top) and GitLab's (``.gitlab/issue_templates/*.md``).
TEMPLATE_PATHS = (
    r"^(?:\.github/ISSUE_TEMPLATE/[^/]+\.(?:md|ya?ml)|(?:\.github/|docs/)?ISSUE_TEMPLATE\.md|\.gitlab/issue_templates/[^/]+\.md)$"
)
# At most this many template files of a version, each read up to this many characters.
MAX_TEMPLATES = 20
MAX_TEMPLATE_CHARS = 64 * 1024

_LINES: LRUCache[int, frozenset[str]] = LRUCache(maxsize=64)
_LOCK = threading.Lock()


def issue_template_lines(run) -> frozenset[str]:
    """The lines of the issue templates the version ``run`` holds (``rag.query_analysis.template_lines``)."""
    with _LOCK:
        known = _LINES.get(run.pk)
    if known is not None:
        return known
    texts = (
        SourceFile.objects.in_version(run)
        .filter(path__iregex=TEMPLATE_PATHS)
        .order_by("path")
        .values_list("text", flat=True)[:MAX_TEMPLATES]
    )
    lines = frozenset().union(*(template_lines(text[:MAX_TEMPLATE_CHARS]) for text in texts))
    with _LOCK:
        _LINES[run.pk] = lines
    return lines
