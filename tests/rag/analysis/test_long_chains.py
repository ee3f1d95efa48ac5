"""Routers, command groups and classes chained in one another further than any project does: the
analysis of the rest goes on, and each chain is followed as far as ``MAX_DEPTH``."""

from __future__ import annotations

import re

import pytest

from rag.analysis.names import MAX_DEPTH
from rag.analysis.repository import analyze_repository
from rag.benchmarks.repository_pass import CHAINS

# Deeper than Python's recursion limit: a walk that recursed once per level failed the whole analysis.
LINKS = 1_200


def _chain(shape: str, links: int) -> dict[str, str]:
    path, text = CHAINS[shape]
    return {path.format(i=i): text.format(i=i, j=i - 1) for i in range(1, links + 1)}


# The deepest route or command of a chain of four files: each under those of the files above it.
WHOLE = {
    "express": "/r4/r3/r2/x", "axum": "/r4/r3/r2/x", "cobra": "c4 c3 c2 c1", "typer": "c4 c3 c2 run1", "click": "g4 g3 g2 g1",
}
LINK = re.compile(r"\b(?:r|c|g|run)\d+\b")


def _deepest(files: dict[str, str]) -> str:
    analysis = analyze_repository(files)
    return max((entry.route_or_command for file in analysis.files.values() for entry in file.entrypoints), key=len)


@pytest.mark.parametrize("shape", sorted(CHAINS))
def test_a_short_chain_is_followed_whole(shape):
    assert _deepest(_chain(shape, 4)) == WHOLE[shape]


@pytest.mark.parametrize("shape", sorted(CHAINS))
def test_a_chain_thousands_deep_is_followed_as_far_as_the_depth_limit(shape):
    links = len(LINK.findall(_deepest(_chain(shape, LINKS))))
    assert MAX_DEPTH <= links <= MAX_DEPTH + 1


def _viewsets(links: int) -> dict[str, str]:
    files = {f"api/v{i}.py": f"from api.v{i - 1} import V{i - 1}\nclass V{i}(V{i - 1}):\n    pass\n" for i in range(1, links + 1)}
    files["api/v0.py"] = "from rest_framework import viewsets\nclass V0(viewsets.ModelViewSet):\n    pass\n"
    files["api/urls.py"] = (
        f"from rest_framework import routers\nfrom api.v{links} import V{links}\nrouter = routers.DefaultRouter()\n"
        f"router.register('items', V{links})\nurlpatterns = router.urls\n"
    )
    return files


def test_a_viewset_inherits_its_actions_through_a_few_bases_and_a_chain_thousands_deep_fails_nothing():
    routes = {(entry.route_or_command, entry.methods) for entry in analyze_repository(_viewsets(3)).files["api/urls.py"].entrypoints}
    assert ("/items/", ("POST",)) in routes and ("/items/{pk}/", ("DELETE",)) in routes
    deep = analyze_repository(_viewsets(LINKS))
    assert len(deep.files) == LINKS + 2 and deep.files["api/urls.py"].error is None
