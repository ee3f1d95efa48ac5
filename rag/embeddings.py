"""Embedders: the local code-aware hashing embedder (default) and provider embeddings.

Every index run records ``embedder.name`` and its dimension; queries of that
index are embedded by ``embedder_for_index`` with the same embedder, never
another. See docs/RETRIEVAL.md for why hashing is the default.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import numpy as np
from django.conf import settings

from rag.terms import identifier_counts, identifier_features

logger = logging.getLogger(__name__)

HASHING_PREFIX = "hashing-code-v1"
DEFAULT_HASHING_DIMENSION = 384
PROVIDER_PREFIX = "provider:"


class EmbeddingUnavailable(Exception):
    """The embedder cannot produce vectors (provider not configured, down, or refusing)."""


class Embedder(Protocol):
    name: str

    @property
    def dimension(self) -> int | None: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """An array of shape (len(texts), dimension), float32, rows L2-normalised."""
        ...


class HashingEmbedder:
    """Signed feature hashing of code-aware words, sublinear tf, L2-normalised.

    Words are identifier parts (CamelCase, snake_case and dotted names split)
    plus whole identifiers, with English and Python stop words removed. Each
    word maps to one of ``dimension`` buckets with a sign (so colliding words
    cancel out on average instead of piling up). Deterministic across
    processes: crc32, not Python's salted ``hash``.
    """

    def __init__(self, dimension: int = DEFAULT_HASHING_DIMENSION) -> None:
        self._dimension = dimension
        self.name = f"{HASHING_PREFIX}-{dimension}"
        self._buckets: dict[str, tuple[int, ...]] = {}

    @property
    def dimension(self) -> int:
        return self._dimension

    def _identifier_buckets(self, identifier: str) -> tuple[int, ...]:
        """Signed buckets of an identifier's words: index + 1, negated for a negative sign."""
        cached = self._buckets.get(identifier)
        if cached is None:
            out = []
            for word in identifier_features(identifier):
                h = zlib.crc32(word.encode("utf-8"))
                bucket = (h % self._dimension) + 1
                out.append(-bucket if (h >> 31) & 1 else bucket)
            cached = tuple(out)
            if len(self._buckets) < 1_000_000:
                self._buckets[identifier] = cached
        return cached

    def embed_counts(self, documents: Sequence[Mapping[str, int]]) -> np.ndarray:
        """Embed documents given as {identifier: occurrences} (what ``identifier_counts`` returns)."""
        out = np.zeros((len(documents), self._dimension), dtype=np.float32)
        buckets_of = self._identifier_buckets
        for row, counts in enumerate(documents):
            tf: dict[int, int] = {}
            for identifier, n in counts.items():
                for bucket in buckets_of(identifier):
                    tf[bucket] = tf.get(bucket, 0) + n
            if not tf:
                continue
            keys = np.fromiter(tf.keys(), dtype=np.int64, count=len(tf))
            weights = 1.0 + np.log(np.fromiter(tf.values(), dtype=np.float32, count=len(tf)))
            np.add.at(out[row], np.abs(keys) - 1, np.where(keys > 0, weights, -weights))
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        out /= np.where(norms == 0, 1, norms)
        return out

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_counts([identifier_counts(text) for text in texts])


class ProviderEmbedder:
    """Embeddings from an LLM provider (``llm.registry``), in batches of ``RAG_EMBED_BATCH_SIZE``.

    The dimension is learnt from the first answer. Any failure after the
    retries raises ``EmbeddingUnavailable``; the caller decides what that means
    (an index run completes with lexical retrieval only).
    """

    def __init__(self, provider_name: str, *, batch_size: int | None = None) -> None:
        self.provider_name = provider_name
        self.name = f"{PROVIDER_PREFIX}{provider_name}"
        self.batch_size = batch_size or settings.RAG["EMBED_BATCH_SIZE"]
        self._dimension: int | None = None

    @property
    def dimension(self) -> int | None:
        return self._dimension

    def _provider(self):
        try:
            from llm.registry import get_provider
        except ImportError as exc:
            raise EmbeddingUnavailable("the LLM provider layer is not available") from exc
        try:
            provider = get_provider(self.provider_name)
        except Exception as exc:
            raise EmbeddingUnavailable(f"embedding provider {self.provider_name!r} is not usable: {exc}") from exc
        if not hasattr(provider, "embed"):
            raise EmbeddingUnavailable(f"provider {self.provider_name!r} has no embeddings")
        return provider

    async def _embed_all(self, texts: Sequence[str]) -> list[list[float]]:
        provider = self._provider()
        vectors: list[list[float]] = []
        # Each call is retried by the provider's own policy (timeouts, 429, 5xx).
        for start in range(0, len(texts), self.batch_size):
            vectors.extend(await provider.embed(list(texts[start : start + self.batch_size])))
        return vectors

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        try:
            vectors = _run_coroutine(lambda: self._embed_all(texts))
        except EmbeddingUnavailable:
            raise
        except Exception as exc:
            raise EmbeddingUnavailable(f"embedding failed: {exc}") from exc
        array = np.asarray(vectors, dtype=np.float32)
        if array.ndim != 2 or array.shape[0] != len(texts):
            raise EmbeddingUnavailable("the provider returned vectors of an unexpected shape")
        if self._dimension is not None and array.shape[1] != self._dimension:
            raise EmbeddingUnavailable("the provider changed its embedding dimension")
        self._dimension = int(array.shape[1])
        norms = np.linalg.norm(array, axis=1, keepdims=True)
        return array / np.where(norms == 0, 1, norms)


def _run_coroutine(factory: Callable[[], object]):
    """Run a coroutine from sync code; under ``sync_to_async`` it runs on the caller's loop."""
    from asgiref.sync import async_to_sync

    async def call():
        return await factory()

    return async_to_sync(call)()


def configured_embedder() -> Embedder:
    """The embedder new index runs use: ``RAG_EMBEDDER`` = ``hashing`` or ``provider:<name>``."""
    return embedder_named(settings.RAG["EMBEDDER"])


def embedder_named(name: str) -> Embedder:
    if name == "hashing":
        return HashingEmbedder()
    if name.startswith(HASHING_PREFIX):
        return HashingEmbedder(int(name.rsplit("-", 1)[1]))
    if name.startswith(PROVIDER_PREFIX):
        return ProviderEmbedder(name[len(PROVIDER_PREFIX) :])
    raise EmbeddingUnavailable(f"unknown embedder {name!r}")


def embedder_for_index(name: str, dimension: int | None) -> Embedder | None:
    """The embedder that built an index, for embedding its queries; None if it cannot be used now."""
    if not name or not dimension:
        return None
    try:
        embedder = embedder_named(name)
    except EmbeddingUnavailable:
        return None
    if isinstance(embedder, HashingEmbedder) and embedder.dimension != dimension:
        return None
    return embedder
