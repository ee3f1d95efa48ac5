"""What a search returns: retrieved items (``SearchResult``), the response around them, and ranked files."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from rag.query_analysis import QueryHints


@dataclass(frozen=True)
class SearchResult:
    """One retrieved item. Lines are 1-based and inclusive."""

    id: int
    path: str
    layer: str
    title: str
    content: str
    metadata: dict[str, Any]
    score: float
    start_line: int
    end_line: int
    # Rank (1-based) of the item in each channel that found it: lexical, vector, symbol.
    channels: dict[str, int] = field(default_factory=dict)

    @property
    def citation(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "layer": self.layer, "title": self.title, "content": self.content,
            "metadata": self.metadata, "score": round(self.score, 6), "start_line": self.start_line,
            "end_line": self.end_line,
        }


@dataclass(frozen=True)
class WholeFiles:
    """The lexical channel's whole-file BM25 ranking, best first, and the title's share of it.

    ``title_scores``: the same BM25 over the words of the query's title alone (its first line;
    a query of one line is its own title), for the best ``candidates`` files by that score. An
    issue's title says in a few words what its body says at length, so a file that matches
    the title stands apart from one that matches only the pasted code or log of the body.
    """

    paths: list[str] = field(default_factory=list)
    title_scores: Mapping[str, float] = field(default_factory=dict)


@dataclass
class SearchResponse:
    """Results plus what was searched; iterating yields the results."""

    items: list[SearchResult]
    mode: str
    layers: tuple[str, ...]
    vector_used: bool
    notes: list[str] = field(default_factory=list)
    # Whole files ranked by full text (BM25 scoring only), best first; ``rank_files`` fuses it in.
    file_ranking: list[str] = field(default_factory=list)
    # What the query's text named (for the file ranking's features) and the index version searched.
    hints: QueryHints | None = None
    run: Any = None
    # The query's distinct words (identifiers split, stop words out), lower-case and unstemmed.
    words: frozenset[str] = frozenset()
    # Per file: whole-file BM25 over the query title's words (``WholeFiles.title_scores``).
    title_scores: Mapping[str, float] = field(default_factory=dict)

    def __iter__(self) -> Iterator[SearchResult]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> SearchResult:
        return self.items[index]


@dataclass(frozen=True)
class FileScore:
    path: str
    score: float
    # The file's best retrieved item; None for a file found by the whole-file ranking alone.
    best: SearchResult | None
