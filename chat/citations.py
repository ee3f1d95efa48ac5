"""Links from an answer's citations to the source view of the repository."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.http import urlencode


def source_url(repository_id: int | None, citation: Mapping[str, Any]) -> str | None:
    """The source view of the cited lines (as the version the citation names had them), or None without a repository."""
    if repository_id is None:
        return None
    try:
        base = reverse("rag-source", kwargs={"pk": repository_id, "path": citation["path"]})
    except NoReverseMatch:
        return None
    start, end = int(citation["start_line"]), int(citation["end_line"])
    query = {"start": start, "end": end}
    if citation.get("version"):
        query["at"] = int(citation["version"])
    return f"{base}?{urlencode(query)}#L{start}"


def label(citation: Mapping[str, Any]) -> str:
    start, end = citation["start_line"], citation["end_line"]
    lines = f"{start}" if start == end else f"{start}-{end}"
    return f"{citation['path']}:{lines}"
