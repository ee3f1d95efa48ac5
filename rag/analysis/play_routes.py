"""Play's routes files: ``conf/routes`` and the files it includes (``conf/admin.routes``), one route a line.

``GET  /clients/:id  controllers.Clients.show(id: Long)`` is a route handled by the method ``show`` of the
class ``controllers.Clients`` (``@controllers.Clients.show`` too: an injected controller); ``->  /admin
admin.Routes`` mounts the router ``admin.Routes``, the file ``admin.routes``, or a router class, under
``/admin``. Lines of ``#`` are comments and lines of ``+`` modifiers of the route below (``+ nocsrf``), none a
route. The routes are the file's entrypoints, each handler written as the class and method it names
(``controllers.Clients.show``, without ``@`` or parameters) for the repository pass to find; the includes are
``include`` mounts, followed across files by ``rag.analysis.entrypoints.mounts``.
"""

from __future__ import annotations

import posixpath
import re

from rag.analysis.facts import FileFacts, Mount
from rag.analysis.records import Entrypoint

# A route: its method, its path (parameters as Play writes them: ``:id``, ``*file``, ``$id<[0-9]+>``) and the
# call, the method of a class named whole, in its package, with its parameters or without (Revel's
# ``conf/routes`` name ``App.Index``: no package, no Play route).
_ROUTE = re.compile(r"[ \t]*(GET|POST|PUT|PATCH|HEAD|DELETE|OPTIONS)[ \t]+(/\S*)[ \t]+@?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*){2,})")
_INCLUDE = re.compile(r"[ \t]*->[ \t]+(/\S*)[ \t]+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)[ \t]*$")


def play_router(path: str) -> str | None:
    """The router a Play routes file compiles to (``conf/routes``: ``router.Routes``; ``conf/admin.routes``:
    ``admin.Routes``), as an include names it; None for any other file."""
    folder, name = posixpath.split(path)
    if posixpath.basename(folder) != "conf":
        return None
    if name == "routes":
        return "router.Routes"
    if name.endswith(".routes") and len(name) > len(".routes"):
        return name.removesuffix("routes") + "Routes"
    return None


def play_routes(path: str, router: str, lines: list[str]) -> FileFacts:
    """A routes file's routes (``framework`` "play", the path as written) and includes, of the router ``router``."""
    routes = []
    includes = []
    for number, line in enumerate(lines, 1):
        if (route := _ROUTE.match(line)) is not None:
            method, pattern, handler = route.groups()
            routes.append(Entrypoint(
                entry_type="http_route", framework="play", route_or_command=pattern, handler=None, path=path,
                start_line=number, end_line=number, methods=(method,), handler_raw=handler,
            ))
        elif (include := _INCLUDE.match(line)) is not None:
            includes.append(Mount(
                method="include", parent=router, child=include.group(2), prefix=include.group(1), scope=router, line=number,
            ))
    return FileFacts(entrypoints=tuple(routes), mounts=tuple(includes))
