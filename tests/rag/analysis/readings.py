"""What ``analyze_repository`` finds in a few files a test writes, read as rows the test compares."""

from __future__ import annotations

from rag.analysis.repository import analyze_repository


def edge_targets(files: dict[str, str], kind: str = "calls") -> dict[tuple[str, str, int], str | None]:
    """(source symbol, name as written, line) -> the edge's target, over the edges of that kind."""
    return {
        (edge.src, edge.raw, edge.line): edge.dst
        for file in analyze_repository(files).files.values()
        for edge in file.edges
        if edge.kind == kind
    }


def entrypoint_rows(files: dict[str, str], *fields: str, kind: str | None = None) -> set[tuple]:
    """Those ``fields`` of every entrypoint (of ``kind``) found in ``files``."""
    return {
        tuple(getattr(entry, name) for name in fields)
        for file in analyze_repository(files).files.values()
        for entry in file.entrypoints
        if kind is None or entry.entry_type == kind
    }


def symbol_rows(files: dict[str, str], *fields: str) -> dict[str, tuple]:
    """qname -> those ``fields`` of every symbol found in ``files``."""
    return {
        symbol.qname: tuple(getattr(symbol, name) for name in fields)
        for file in analyze_repository(files).files.values()
        for symbol in file.symbols
    }
