"""Zip archives as a source: the upload checks and the extraction of ``rag.intake``.

The intake module keeps the code (its checks are the product's first line of
defence and are tested there); this is the source's face beside ``git``.
"""

from __future__ import annotations

import os

from rag.intake import ArchiveReport, Extraction, IntakeLimits, extract_files, inspect_archive

__all__ = ["ArchiveReport", "inspect_archive", "read_archive_files"]


def read_archive_files(path: str | os.PathLike[str], limits: IntakeLimits | None = None) -> Extraction:
    """The text files of a stored, checked archive."""
    return extract_files(path, limits)
