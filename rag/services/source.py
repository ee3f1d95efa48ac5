"""Reading the files of an index version (the source view and the agent's read_file tool)."""

from __future__ import annotations

from dataclasses import dataclass

from rag.models import IndexRun, Repository, SourceFile

MAX_LINES = 2000


class SourceNotFound(LookupError):
    """No such file in the index (or the repository has no index yet)."""


@dataclass(frozen=True)
class SourceSlice:
    """Lines ``start_line..end_line`` (1-based, inclusive, clamped to the file) of ``path``."""

    path: str
    language: str
    start_line: int
    end_line: int
    total_lines: int
    text: str


def read_source(
    repository: Repository,
    path: str,
    start_line: int | None = None,
    end_line: int | None = None,
    *,
    max_lines: int = MAX_LINES,
    run: IndexRun | None = None,
) -> SourceSlice:
    """A line range of one indexed file; the whole file (up to ``max_lines``) without a range."""
    run = run or repository.active_run
    path = (path or "").strip().lstrip("/")
    if run is None:
        raise SourceNotFound("the repository has no ready index yet")
    try:
        source = SourceFile.objects.in_version(run).get(path=path)
    except SourceFile.DoesNotExist:
        raise SourceNotFound(f"no file {path!r} in the index") from None
    lines = source.text.splitlines()
    total = len(lines)
    if total == 0:
        return SourceSlice(path=source.path, language=source.language, start_line=0, end_line=0, total_lines=0, text="")
    start = min(max(1, int(start_line or 1)), total)
    end = int(end_line) if end_line else start + max_lines - 1
    end = max(start, min(end, total, start + max_lines - 1))
    return SourceSlice(
        path=source.path, language=source.language, start_line=start, end_line=end, total_lines=total,
        text="\n".join(lines[start - 1 : end]),
    )


def list_files(repository: Repository, *, run: IndexRun | None = None) -> list[str]:
    run = run or repository.active_run
    if run is None:
        return []
    return list(SourceFile.objects.in_version(run).order_by("path").values_list("path", flat=True))
