"""Where an index version's files come from: a stored zip (``zip``) or a git commit (``git``).

Both yield the same ``Extraction`` (text files, skipped entries with reasons)
through ``rag.intake.select_files``, so indexing does not know which it got.
"""

from __future__ import annotations

from rag.intake import Extraction
from rag.models import IndexRun


def read_run_files(run: IndexRun) -> Extraction:
    """The files of the run's source: its commit when it has one, else its archive."""
    if run.commit_sha:
        from rag.sources.git import mirror_path, read_commit_files

        return read_commit_files(mirror_path(run.repository_id), run.commit_sha)
    from rag.sources.zip import read_archive_files

    return read_archive_files(run.archive_path)
