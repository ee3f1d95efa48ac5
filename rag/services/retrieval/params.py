"""What a search is asked: the ranking's knobs (``RankingParams``), the layers of a mode, and the item filter.

Every weight of the ranking is in ``RankingParams`` so an evaluation can tune
them without touching the channels.
"""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pathspec.util import lookup_pattern

from rag.models import CODE_LAYERS, DOC_LAYERS, LAYERS
from rag.storage import version_filter

Mode = Literal["code", "docs", "auto"]
DEFAULT_LIMIT = 8


@dataclass(frozen=True)
class RankingParams:
    """Every knob of the ranking, in one place."""

    rrf_k: float = 60.0
    weight_lexical: float = 1.0
    weight_vector: float = 0.7
    weight_symbol: float = 1.2
    # Candidates each channel contributes before fusion.
    candidates: int = 60
    # Multipliers per layer (the replaced system ranked C3 > C1 > C2 > C0).
    layer_weights: Mapping[str, float] = field(
        default_factory=lambda: {
            "C3_ENTRYPOINTS": 1.15,
            "C1_SYMBOL_CATALOG": 1.05,
            "C2_DEPENDENCY_GRAPH": 0.85,
            "C0_SOURCE_CHUNKS": 1.0,
            "D0_DOCS": 1.0,
        }
    )
    # Multiplier for items of files read as plain windows of lines (no parser knew their language:
    # configuration, data, shell scripts) and of vendored or generated files (``chunk_items``) when searching code.
    window_weight: float = 0.3
    # Multiplier for items under examples/, tutorials/, docs/, benchmarks/ ... when the query names none of them.
    example_penalty: float = 0.5
    # Multiplier for items in test files when the query is not about tests.
    test_penalty: float = 0.4
    # ... and when it is (an issue often names the test it adds; test files still rarely hold the answer).
    test_penalty_about_tests: float = 0.6
    # Symbol-channel tiers (higher is stronger evidence).
    frame_tier: float = 4.0
    dotted_tier: float = 3.0
    name_tier: float = 2.0
    path_tier: float = 1.0
    # Leave reports, interpreter banners and console prompts pasted into a query out of matching.
    strip_boilerplate: bool = True
    # Distinct words of a query used for full text (long issue texts are cut here;
    # SWE-bench Lite, 118 instances: 48 -> 64 words moved Acc@5 from 72.0 to 73.7%,
    # 96 gave 74.6% at three times the cost of a search).
    max_query_words: int = 64
    # When every word of a query is common in the index, this many of them are searched together (AND).
    common_fallback_words: int = 4
    # Full-text scoring of items: "bm25" (each distinctive query word weighted by
    # its rarity in the index, length-normalised) or "ts_rank" (PostgreSQL's
    # ranking, which has no notion of a word's rarity).
    lexical_scoring: str = "bm25"
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    # Also score the index's common words (those in more than 2% of its items); slower, and they weigh little.
    bm25_common_words: bool = False
    # A word's weight in an item: 1, plus title_boost when the item's title or qualified name
    # (weight A) has it; or, with bm25_tf, PostgreSQL's rank of the item for that word alone,
    # which also grows (and saturates) with the word's occurrences.
    title_boost: float = 1.0
    bm25_tf: bool = True
    # Query words: extra weight per log of how often the query repeats a word, and for a word of its title.
    query_repeat_boost: float = 0.5
    query_title_boost: float = 1.0
    # Items read per query word (bounds the cost of a word found in many items).
    max_postings: int = 5000
    # With "ts_rank", at most this many full-text matches are ranked. Matches past the cap are
    # dropped in table order, not by relevance, so a low cap loses the best
    # items of long queries on large repositories (SWE-bench Lite, 53 instances:
    # 3000 -> 20000 moved file Acc@1 from 39.6 to 54.7%, MRR 0.524 to 0.624).
    max_ranked: int = 20000
    # Files: a file's score is the sum of its items' scores, the i-th best (0-based) weighted file_decay**i ...
    file_decay: float = 0.3
    # ... plus weight_file_lexical / (file_rrf_k + rank) for its rank in the whole-file BM25 ranking
    # (each word counted once per item of the file, normalised by the file's length with file_bm25_b).
    weight_file_lexical: float = 0.3
    file_rrf_k: float = 10.0
    file_bm25_b: float = 0.75
    # Files this deep in the whole-file ranking are ranked even when no retrieved item is theirs.
    file_only_depth: int = 10
    # Count the query's common words per file too (in SQL) for the whole-file ranking.
    file_common_words: bool = True
    # How files are ranked from a search: "fusion" (``rank_files``: item scores and the whole-file rank,
    # weighted as above) or "learned" (``rag.services.file_ranker``: a model over each candidate file's
    # features re-orders the fused ranking's first ``learned_depth`` files).
    file_ranker: str = "learned"
    learned_depth: int = 30


DEFAULT_PARAMS = RankingParams()


class SearchError(ValueError):
    """Bad search input; the message is for the caller."""


# .gitignore's patterns: ``*`` within a folder, ``**`` across folders, a pattern without
# ``/`` (``*.md``) or with a trailing one only (``docs/``) matches at any depth, a leading ``/`` anchors.
_GLOB = lookup_pattern("gitignore")


# The longest path glob a search takes: real ones are a few dozen characters.
MAX_PATH_GLOB_CHARS = 500
# Three or more asterisks in a row are as many plain ``*`` to .gitignore (only a whole ``**`` segment
# crosses folders), and each would be one more ``[^/]*`` side by side in the regex, which PostgreSQL
# takes time to match growing with their square (800 in a row: 49 s): they are one ``*``.
_STARS = re.compile(r"\*{3,}")


def glob_to_regex(pattern: str) -> str:
    """A regular expression for a path glob, as .gitignore reads it, that PostgreSQL's ``~`` and ``re`` both take."""
    if len(pattern) > MAX_PATH_GLOB_CHARS:
        raise SearchError(f"the path glob is longer than {MAX_PATH_GLOB_CHARS} characters")
    regex, include = _GLOB.pattern_to_regex(_STARS.sub("*", pattern.strip()))
    if regex is None or not include:
        raise SearchError(f"the path glob {pattern!r} is not a pattern of paths to keep")
    return regex


def layers_for(mode: str, layers: Sequence[str] | None) -> tuple[str, ...]:
    if layers:
        unknown = [layer for layer in layers if layer not in LAYERS]
        if unknown:
            raise SearchError(f"unknown layer(s): {', '.join(unknown)}; known: {', '.join(LAYERS)}")
        return tuple(layers)
    return DOC_LAYERS if mode == "docs" else CODE_LAYERS


def item_filter(run, layers: Sequence[str], path_regex: str | None, docs: bool) -> tuple[str, list[Any]]:
    """The items of version ``run`` a search reads (``rag.storage.version_filter``, then layers, docs, paths)."""
    version, params = version_filter(run)
    sql = f"{version} AND is_doc = %s AND layer = ANY(%s)"
    params += [docs, list(layers)]
    if path_regex:
        sql += " AND path ~ %s"
        params.append(path_regex)
    return sql, params
