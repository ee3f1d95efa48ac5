"""An upload of one name repeated in thousands of files: the repository pass's lookups read at most
their allowance (``LookupWork``), and the references left past it stay unresolved, counted."""

from __future__ import annotations

import pytest

from rag.analysis.repository import analyze_repository
from rag.benchmarks.repository_pass import SHAPES


def _shape(shape: str, files: int) -> dict[str, str]:
    path, text = SHAPES[shape]
    return {path.format(i=i): text.format(i=i) for i in range(files)}


def _edges(analysis) -> dict[tuple[str, int, str], str | None]:
    return {(path, edge.line, edge.raw): edge.dst for path, file in analysis.files.items() for edge in file.edges}


@pytest.mark.parametrize("shape", ["rust_crate", "cs_namespaced", "cpp_namespaced"])
def test_past_the_allowance_references_stay_unresolved_and_those_before_it_resolve_as_without_one(shape):
    tree = _shape(shape, 120)
    whole = analyze_repository(tree, lookups=10**12)
    cut = analyze_repository(tree, lookups=2_000)
    again = analyze_repository(tree, lookups=2_000)

    assert whole.unresolved == 0
    assert cut.unresolved > 0
    resolved, full = _edges(cut), _edges(whole)
    assert resolved.keys() == full.keys()
    left = [key for key, dst in resolved.items() if dst != full[key]]
    # Only references the allowance left are missing, and each of them is unresolved.
    assert left and all(resolved[key] is None for key in left)
    assert len(left) <= cut.unresolved
    assert sum(dst is not None for dst in resolved.values()) > 0
    # The allowance counts symbols read, not seconds: the same upload is cut at the same reference.
    assert _edges(again) == resolved and again.unresolved == cut.unresolved


def test_the_default_allowance_leaves_a_real_sized_repository_whole():
    # A name in 120 files of a folder, read at each reference of it, is far inside the default allowance.
    tree = _shape("rust_crate", 120)
    assert analyze_repository(tree).unresolved == 0
