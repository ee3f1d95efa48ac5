"""The symbol channel: items named by the code hints of the query.

Identifiers, dotted names, file paths, routes and traceback frames, matched in
tiers (a frame is the strongest evidence, a path the weakest) against the
index's names, qualified names and paths.
"""

from __future__ import annotations

import re
import threading

from cachetools import LRUCache
from django.db import connection

from rag.query_analysis import QueryHints
from rag.services.retrieval.params import RankingParams, item_filter
from rag.storage import version_filter


_LAYER_ORDER = {layer: i for i, layer in enumerate(("C1_SYMBOL_CATALOG", "C0_SOURCE_CHUNKS", "C3_ENTRYPOINTS", "C2_DEPENDENCY_GRAPH", "D0_DOCS"))}


def symbol_matches(
    run, layers, path_regex, docs: bool, hints: QueryHints, params: RankingParams
) -> list[tuple[int, str, bool]]:
    if not hints.has_code:
        return []
    where, args = item_filter(run, layers, path_regex, docs)
    # Its own cursor: the search may run this channel on another connection (``database_pool.run_beside``).
    with connection.cursor() as cursor:
        tiers: dict[int, tuple[float, int, int]] = {}
        found: dict[int, tuple[int, str, bool]] = {}

        def add(rows, tier: float) -> None:
            for row in rows:
                item_id, layer = row[0], row[1]
                found[item_id] = row[:3]
                current = tiers.get(item_id)
                # Within a tier, a name shared by fewer items is the stronger evidence.
                key = (tier, -(row[3] if len(row) > 3 else 0), -_LAYER_ORDER.get(layer, 9))
                if current is None or key > current:
                    tiers[item_id] = key

        # Every file the query names (module paths, paths, traceback frames), looked up in one statement.
        indexed = _indexed_paths(
            cursor,
            run,
            [wanted for dotted in sorted(hints.dotted)[:20] for wanted in _module_files(dotted)]
            + sorted(hints.paths)[:20]
            + [_frame_file(frame.path)[0] for frame in hints.frames[:20]],
        )
        names = sorted({n.lower() for n in hints.names})
        if names:
            # Rarest names first: ``clean`` or ``get`` name hundreds of items, a
            # class named in an issue usually one or two.
            cursor.execute(
                "SELECT id, layer, is_test, sharing FROM ("
                f"  SELECT id, layer, is_test, count(*) OVER (PARTITION BY name) AS sharing FROM rag_item WHERE {where} AND name = ANY(%s)"
                ") named ORDER BY sharing, id LIMIT 500",
                [*args, names],
            )
            add(cursor.fetchall(), params.name_tier)
        for dotted in sorted(hints.dotted)[:20]:
            last = dotted.rsplit(".", 1)[-1].lower()
            cursor.execute(
                f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND name = %s AND (qname = %s OR qname LIKE %s) LIMIT 100",
                [*args, last, dotted, "%." + _like_escape(dotted)],
            )
            add(cursor.fetchall(), params.dotted_tier)
            # A dotted module path (``django.db.models.query``) names a file.
            for wanted in _module_files(dotted):
                paths = _matching_paths(indexed, wanted, min_parts=2)
                if paths:
                    cursor.execute(f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND path = ANY(%s) LIMIT 200", [*args, paths])
                    add(cursor.fetchall(), params.path_tier)
        for path in sorted(hints.paths)[:20]:
            paths = _matching_paths(indexed, path, min_parts=1)
            if paths:
                cursor.execute(f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND path = ANY(%s) LIMIT 200", [*args, paths])
                add(cursor.fetchall(), params.path_tier)
        routes = sorted(hints.routes)[:10]
        if routes:
            # Entrypoints whose route contains a path the query names (at most 50 a path, in table order).
            entrypoints = _entrypoints(cursor, (run.pk, tuple(sorted(layers)), path_regex, docs), where, args)
            for route in routes:
                add([row[:3] for row in entrypoints if route in row[3]][:50], params.dotted_tier)
        for frame in hints.frames[:20]:
            # Traceback paths are absolute on someone else's machine: the files
            # sharing the longest path suffix with it are the ones meant. Below an
            # installation folder the path is a module path, which must match whole
            # (numpy's ``testing/utils.py`` is not this repository's ``utils.py``).
            wanted, required = _frame_file(frame.path)
            paths = _matching_paths(indexed, wanted, min_parts=required)
            if paths:
                cursor.execute(
                    f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND path = ANY(%s) AND start_line <= %s AND end_line >= %s "
                    "LIMIT 50",
                    [*args, paths, frame.line, frame.line],
                )
                add(cursor.fetchall(), params.frame_tier)
        ranked = sorted(tiers.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
        return [found[item_id] for item_id, _ in ranked[: params.candidates]]


_INSTALLED = re.compile(r"/(?:site|dist)-packages/")


def _like_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _module_files(dotted: str) -> tuple[str, str]:
    module_path = dotted.replace(".", "/")
    return f"{module_path}.py", f"{module_path}/__init__.py"


def _frame_file(path: str) -> tuple[str, int]:
    """A traceback frame's file as the index may hold it, and how many trailing components must match."""
    installed = _INSTALLED.split(path.replace("\\", "/"))
    wanted = installed[-1]
    return wanted, (len([p for p in wanted.split("/") if p]) if len(installed) > 1 else 1)


def _parts(wanted: str) -> list[str]:
    return [p for p in wanted.replace("\\", "/").split("/") if p and p != "."]


# Per index version and item filter: its entrypoints (id, layer, is_test, route or command) in table
# order. Finding them reads every item of the version (no index has the layer), so a process reads
# them once per version; versions never change. At most 100,000 entrypoints in all.
_ENTRYPOINTS: LRUCache[tuple, tuple[tuple[int, str, bool, str], ...]] = LRUCache(
    maxsize=100_000, getsizeof=lambda rows: len(rows) + 1
)
# Per index version and file name: the version's paths that end in it (see ``_indexed_paths``); at most 50,000 paths in all.
_NAMED_PATHS: LRUCache[tuple[int, str], tuple[str, ...]] = LRUCache(maxsize=50_000, getsizeof=lambda paths: len(paths) + 1)
_LOCK = threading.Lock()


def _entrypoints(cursor, key: tuple, where: str, args: list) -> tuple[tuple[int, str, bool, str], ...]:
    with _LOCK:
        cached = _ENTRYPOINTS.get(key)
    if cached is not None:
        return cached
    cursor.execute(
        f"SELECT id, layer, is_test, metadata->>'route_or_command' FROM rag_item WHERE {where} "
        "AND layer = 'C3_ENTRYPOINTS' AND metadata->>'route_or_command' IS NOT NULL ORDER BY ctid",
        args,
    )
    rows = tuple(cursor.fetchall())
    if len(rows) < _ENTRYPOINTS.maxsize:
        with _LOCK:
            _ENTRYPOINTS[key] = rows
    return rows


def _indexed_paths(cursor, run, wanted: list[str]) -> dict[str, list[str]]:
    """Per file name of ``wanted``: the indexed paths that end in it (at most 500 each).

    The names not kept from earlier searches of the version are looked up in
    one statement: a branch per name, each with its own constants, so every
    branch can use the path indexes.
    """
    names = sorted({parts[-1] for parts in map(_parts, wanted) if parts})
    if not names:
        return {}
    found: dict[str, list[str]] = {}
    with _LOCK:
        for name in names:
            cached = _NAMED_PATHS.get((run.pk, name))
            if cached is not None:
                found[name] = list(cached)
    missing = [name for name in names if name not in found]
    if missing:
        version, version_args = version_filter(run)
        branches, args = [], []
        for name in missing:
            branches.append(
                f"(SELECT %s, path FROM (SELECT DISTINCT path FROM rag_item WHERE {version} "
                "AND (path = %s OR reverse(path) LIKE %s) LIMIT 500) named)"
            )
            args += [name, *version_args, name, _like_escape(("/" + name)[::-1]) + "%"]
        cursor.execute(" UNION ALL ".join(branches), args)
        paths: dict[str, list[str]] = {name: [] for name in missing}
        for name, path in cursor.fetchall():
            paths[name].append(path)
        with _LOCK:
            for name, named in paths.items():
                _NAMED_PATHS[(run.pk, name)] = tuple(named)
        found.update(paths)
    return {name: found[name] for name in names}


def _matching_paths(indexed: dict[str, list[str]], wanted: str, *, min_parts: int) -> list[str]:
    """Indexed paths sharing the longest trailing run of components with ``wanted`` (at least ``min_parts``)."""
    parts = _parts(wanted)
    if len(parts) < min_parts or not parts:
        return []
    best: list[str] = []
    best_score = 0
    for path in indexed.get(parts[-1], ()):
        candidate = path.split("/")
        score = 0
        while score < min(len(candidate), len(parts)) and candidate[-1 - score] == parts[-1 - score]:
            score += 1
        if score > best_score:
            best, best_score = [path], score
        elif score == best_score:
            best.append(path)
    return best if best_score >= min_parts else []
