"""Entrypoint finders (C3): where a repository is entered from outside, one module per framework family.

``find_entrypoints(names, analyses)`` runs every family over the files' facts
against the repository's resolved names and returns ``{path: [Entrypoint]}``:

- ``web``: Flask, FastAPI, Litestar and Pyramid routes, by decorator or by registration call, and the route tables of
  aiohttp, Starlette, Falcon and Tornado (``rag.analysis.python_routes``);
- ``cli``: click and typer commands, and Flask's ``app.cli``;
- ``tasks``: tasks of Python's task queues and schedulers (Celery, Dramatiq, RQ, Huey, APScheduler);
- ``graphql``: the operations of Strawberry's, Ariadne's and Graphene's GraphQL schemas;
- ``commands``: argparse commands, Django management commands, console scripts;
- ``django_urls``: routes of Django URLconfs, through ``include()``;
- ``drf``: the routes Django REST framework's routers make of their viewsets.

``mounts`` runs after them, on every language's entrypoints: prefixes set in
another file (a router mounted where it is imported, NestJS's global prefix)
and cobra commands named by their whole path. ``context`` holds what they share. May import ``rag.analysis`` only; name
resolution itself lives in ``rag.analysis.names``, ``rag.analysis.imports`` and ``rag.analysis.resolution``.
"""

from __future__ import annotations

from rag.analysis.entrypoints.finder import find_entrypoints

__all__ = ["find_entrypoints"]
