"""The reference point: Okapi BM25 (``rank_bm25``) over whole source files, path and content.

No chunks, no symbols, no fusion: each non-test source file of the snapshot,
whatever its language, is one document and the issue text is the query.
Scored on the same snapshots as the product's retrieval so the two columns
are comparable.
"""

from __future__ import annotations

import re

from rank_bm25 import BM25Okapi

from rag.analysis.filetypes import artifact_type, detect_language
from rag.evaluation.snapshots import Snapshot
from rag.terms import looks_like_test_path

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def code_tokens(text: str) -> list[str]:
    """Lower-cased identifiers plus their snake_case and CamelCase parts (``getHTTPResponse`` ->
    ``gethttpresponse get http response``), so prose and code meet in the middle."""
    tokens: list[str] = []
    for word in _WORD.findall(text):
        parts = [part.lower() for piece in word.split("_") for part in _CAMEL_PART.findall(piece)]
        lowered = word.lower()
        tokens.append(lowered)
        if len(parts) > 1:
            tokens.extend(parts)
    return tokens


def is_source_file(path: str) -> bool:
    """A file the baseline ranks: code in a language the product recognises, not a test.

    Both rules are the product's own (the file type the index gives the file, and the
    test-path rule its ranking applies), so the baseline follows them as languages are added.
    """
    language = detect_language(path)
    if language == "unknown" or artifact_type(path, language) != "code":
        return False
    return not looks_like_test_path(path)


class Bm25FileBaseline:
    """Ranks a snapshot's source files; token lists are cached per blob, so walking a history is cheap."""

    def __init__(self) -> None:
        self._tokens: dict[str, list[str]] = {}

    def rank(self, snapshot: Snapshot, query: str, limit: int = 20) -> list[str]:
        paths = sorted(path for path in snapshot.blobs if is_source_file(path))
        if not paths:
            return []
        live = {snapshot.blobs[path] for path in paths}
        corpus: list[list[str]] = []
        for path in paths:
            blob_id = snapshot.blobs[path]
            tokens = self._tokens.get(blob_id)
            if tokens is None:
                tokens = code_tokens(snapshot.contents[path].decode("utf-8", errors="replace"))
                self._tokens[blob_id] = tokens
            corpus.append(code_tokens(path) + tokens)
        # Forget blobs the current snapshot no longer has: the cache follows the history walk.
        for blob_id in set(self._tokens) - live:
            del self._tokens[blob_id]
        scores = BM25Okapi(corpus).get_scores(code_tokens(query))
        order = sorted(range(len(paths)), key=lambda index: (-scores[index], paths[index]))
        return [paths[index] for index in order[:limit]]
