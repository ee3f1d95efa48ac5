"""The Django project: settings (from the environment), ``asgi.py``, root urls, the embedded PostgreSQL, ``serve``.

Also the project's own pages and checks (``database.py``: pgvector present),
first-run setup and the request-size limit. May import everything: this is the
wiring of ``chat``, ``rag``, ``llm`` and ``database_pool``, and nothing below
imports it (the management commands that prepare the database excepted).
"""
