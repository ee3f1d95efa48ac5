"""Blazor's routable components: a ``.razor`` file's ``@page "/counter"`` directives.

Each directive is an HTTP route (framework ``blazor``, a GET of the page) at the line that declares it, handled
by the component: the class the file compiles to, named by the file (``Counter`` of ``Counter.razor``) in the
namespace its ``@namespace`` directive gives (else the one class of that name), found among the repository's C#
classes by the repository pass (a code-behind ``Counter.razor.cs`` declares it); a route parameter keeps its constraint as written
(``/products/{id:int}``). A component without a directive is no route.
"""

from __future__ import annotations

import posixpath
import re

from rag.analysis.facts import FileFacts
from rag.analysis.records import Entrypoint

_PAGE = re.compile(r'^\s*@page\s+"([^"\n]*)"')
_NAMESPACE = re.compile(r"^\s*@namespace\s+([\w.]+)")


def is_razor_component(path: str) -> bool:
    return path.endswith(".razor")


def razor_routes(path: str, lines: list[str]) -> FileFacts | None:
    """The routes a component's ``@page`` directives declare; None when it declares none."""
    namespace = next((found.group(1) for line in lines if (found := _NAMESPACE.match(line)) is not None), "")
    component = posixpath.splitext(posixpath.basename(path))[0]
    # Without a namespace of its own, the component's namespace is the project's folders': the class whose
    # whole name ends with ``.Counter`` (``rag.analysis.resolution.RepositoryEdges.named_class``).
    handler = f"{namespace}.{component}" if namespace else f".{component}"
    routes = tuple(
        Entrypoint(
            entry_type="http_route", framework="blazor", route_or_command=found.group(1) or "/", handler=None, path=path,
            start_line=number, end_line=number, methods=("GET",), handler_raw=handler,
        )
        for number, line in enumerate(lines, 1)
        if (found := _PAGE.match(line)) is not None
    )
    return FileFacts(entrypoints=routes) if routes else None
