"""Code-aware words of stored items: identifier splitting for the embedder and
full-text search, and which paths are tests.

Every index row's derived columns come from here, so this module's text is
part of the item format (``rag.services.index_items.ITEM_FORMAT``): what reads a
query's text lives in ``rag.query_analysis`` and can change without making
stored rows stale.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")

# English function words and the most frequent Python keywords/idioms: they
# are in almost every chunk, so they only add noise to a hashed vector.
STOP_WORDS = frozenset(
    """
    a an and are as at be been but by can could did do does for from had has have he her his how i if in into is
    it its just me my no not of on or our she so some such than that the their them then there these they this
    those to too us was we were what when where which while who why will with would you your
    self cls def return none true false import pass elif else try except finally raise lambda class
    yield assert del global nonlocal async await
    """.split()
)


@lru_cache(maxsize=200_000)
def split_identifier(identifier: str) -> tuple[str, ...]:
    """``HttpResponseRedirect.get_url2`` -> ("http", "response", "redirect", "get", "url", "2")."""
    parts: list[str] = []
    for piece in re.split(r"[._]+", identifier):
        if piece:
            parts.extend(word.lower() for word in _CAMEL.findall(piece))
    return tuple(parts)


@lru_cache(maxsize=200_000)
def identifier_features(identifier: str) -> tuple[str, ...]:
    """The words of one identifier for the embedder: its parts plus the whole (lowercased) name."""
    parts = tuple(p for p in split_identifier(identifier) if p not in STOP_WORDS and len(p) > 1)
    whole = identifier.lower()
    if len(parts) > 1 or (parts and parts[0] != whole):
        return (*parts, whole)
    return parts


def identifier_counts(text: str) -> Counter[str]:
    """Occurrences of each identifier (dotted names kept whole) in ``text``."""
    return Counter(IDENTIFIER.findall(text))


def split_terms(identifiers: str | Iterable[str]) -> str:
    """Extra words for full-text search: the parts of compound identifiers.

    PostgreSQL's parser already splits ``snake_case`` but keeps ``CamelCase``
    and ``dotted.names`` whole, so ``LoginView`` would not match "login view".
    Takes a text or its identifiers.
    """
    if isinstance(identifiers, str):
        identifiers = set(IDENTIFIER.findall(identifiers))
    seen: set[str] = set()
    for identifier in identifiers:
        parts = split_identifier(identifier)
        if len(parts) > 1:
            seen.update(parts)
    return " ".join(sorted(seen))


@lru_cache(maxsize=65536)
def looks_like_test_path(path: str) -> bool:
    # Cached: ranking asks it of every candidate file of every query.
    lowered = path.lower()
    name = lowered.rsplit("/", 1)[-1]
    from rag.analysis.languages.spec import (
        is_test_file,  # each ecosystem's conventions (``*_test.go``, ``src/test/``
    )

    return (
        is_test_file(path)
        or "/tests/" in f"/{lowered}"
        or "/test/" in f"/{lowered}"
        or "/testing/" in f"/{lowered}"
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name.endswith("_tests.py")
        or name == "conftest.py"
        or name == "tests.py"
    )


# Code the project carries but did not write (GitHub Linguist's "vendored" files): folders of
# other projects' code, minified assets and versioned copies of libraries (``jquery-3.5.1.js``).
# Searching code, they weigh as plain windows; their source chunks have no full-text entry
# (``rag.services.index_items.chunk_items``): they are found by their symbols and by meaning.
# Linguist's folders: ``dependencies/`` and ``deps/`` at the top (C and C++ projects' copies of
# other libraries), ``extern/`` and ``externals/`` anywhere. Not its ``external/``: as often a
# project's own layer over outside systems (``sympy/external/``) as a copy of someone else's code.
VENDORED = re.compile(
    r"(?:^|/)(?:vendor(?:ed|s)?|(?:third|3rd)[_-]?party|extern|externals|node_modules|bower_components)/"
    r"|^(?:[Dd]ependencies|deps)/"
    r"|\.min\.(?:js|css|mjs)$"
    r"|(?:^|/)[^/]*?[-.]v?\d+\.\d+(?:\.\d+)*(?:[-.][a-z0-9]+)?(?:\.min)?\.(?:js|mjs|css)$",
    re.IGNORECASE,
)


def is_vendored(path: str) -> bool:
    return bool(VENDORED.search(path))
