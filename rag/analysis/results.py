"""What analysing returns: one file's records and facts (``FileAnalysis``), and every file's (``RepositoryAnalysis``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rag.analysis.facts import FileFacts
from rag.analysis.records import Chunk, Edge, Entrypoint, Symbol


@dataclass
class FileAnalysis:
    """One file's layers. ``edges`` and ``entrypoints`` come from the repository pass.

    ``facts`` is what the repository pass reads from this file; it depends only on
    the path and text, so a file with the same ``content_hash`` can reuse it.
    """

    path: str
    content_hash: str
    language: str
    chunks: list[Chunk] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    entrypoints: list[Entrypoint] = field(default_factory=list)
    error: str | None = None
    artifact_type: str = "code"
    facts: FileFacts | None = None
    # A tool wrote it (``rag.analysis.filetypes.is_generated``): searched as code the project carries.
    generated: bool = False


@dataclass
class RepositoryAnalysis:
    files: dict[str, FileAnalysis] = field(default_factory=dict)
    reused: frozenset[str] = frozenset()
    """Paths whose per-file extraction was reused from the previous analysis (same content hash)."""
    extracted: dict[str, FileAnalysis] = field(default_factory=dict)
    """Each file's per-file pass, before the repository pass: what a later analysis can reuse,
    a function of the path and text alone (``files`` also depends on the other files)."""
    unresolved: int = 0
    """References the repository pass left unresolved because its lookups had read all they may
    (``rag.analysis.candidates.LookupWork``): none in a real repository."""

    def chunks(self) -> list[Chunk]:
        return [chunk for analysis in self.files.values() for chunk in analysis.chunks]

    def symbols(self) -> list[Symbol]:
        return [symbol for analysis in self.files.values() for symbol in analysis.symbols]

    def edges(self) -> list[Edge]:
        return [edge for analysis in self.files.values() for edge in analysis.edges]

    def entrypoints(self) -> list[Entrypoint]:
        return [entry for analysis in self.files.values() for entry in analysis.entrypoints]
