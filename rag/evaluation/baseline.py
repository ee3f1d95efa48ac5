"""The reference point: Okapi BM25 (``rank_bm25``) over whole Python files, path and content.

No chunks, no symbols, no fusion: each ``.py`` file of the snapshot is one
document and the issue text is the query. Scored on the same snapshots as the
product's retrieval so the two columns are comparable.
"""

from __future__ import annotations

import re

from rank_bm25 import BM25Okapi

from rag.evaluation.snapshots import Snapshot

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


class Bm25FileBaseline:
    """Ranks a snapshot's ``.py`` files; token lists are cached per blob, so walking a history is cheap."""

    def __init__(self) -> None:
        self._tokens: dict[str, list[str]] = {}

    def rank(self, snapshot: Snapshot, query: str, limit: int = 20) -> list[str]:
        paths = sorted(path for path in snapshot.blobs if path.endswith(".py"))
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
